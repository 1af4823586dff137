import { describe, expect, it, vi } from "vitest";
import { buildStack, LocalStack } from "../../dev/local-stack.ts";

/** A part that notes when it started (with its port) and stopped. */
function recorder() {
  const events: string[] = [];
  const part =
    (name: string, failStop = false) =>
    async ({ port }: { port: number }) => {
      events.push(`start ${name} ${port > 0 ? "on a port" : "without one"}`);
      return {
        close: async () => {
          events.push(`stop ${name}`);
          if (failStop) throw new Error(`${name} would not stop`);
        },
      };
    };
  return { events, part };
}

describe("the local stack", () => {
  it("gives each part a free port unless told one, and stops the last started first", async () => {
    const { events, part } = recorder();
    const stack = new LocalStack();
    await stack.start(part("redis"), {});
    await stack.start(part("bridge"), { port: 1234 });
    stack.keep(async () => void events.push("remove files"));
    await stack[Symbol.asyncDispose]();
    expect(events).toEqual([
      "start redis on a port",
      "start bridge on a port",
      "remove files",
      "stop bridge",
      "stop redis",
    ]);
  });

  it("tries another free port when its port is taken before the part binds it, but not a port it was told", async () => {
    const ports: number[] = [];
    const taken = Object.assign(new Error("listen EADDRINUSE: address already in use"), { code: "EADDRINUSE" });
    const bindsSecondTime = async ({ port }: { port: number }) => {
      ports.push(port);
      if (ports.length === 1) throw taken;
      return { close: async () => {} };
    };
    const stack = new LocalStack();
    await stack.start(bindsSecondTime, {});
    await stack.stop();
    expect(ports).toHaveLength(2);
    expect(ports[0]).not.toBe(ports[1]);
    ports.length = 0;
    await expect(stack.start(bindsSecondTime, { port: 1234 })).rejects.toThrow("EADDRINUSE");
    expect(ports).toEqual([1234]);
  });

  it("stops what a failed start-up had started, and the error goes on", async () => {
    const { events, part } = recorder();
    const failing = buildStack(async (stack) => {
      await stack.start(part("redis"), {});
      throw new Error("the bridge did not start");
    });
    await expect(failing).rejects.toThrow("the bridge did not start");
    expect(events).toEqual(["start redis on a port", "stop redis"]);
  });

  it("stops every part even when one will not stop, and only once", async () => {
    const { events, part } = recorder();
    const stack = new LocalStack();
    await stack.start(part("redis"), {});
    await stack.start(part("model", true), {});
    await stack.stop();
    await stack.stop();
    expect(events.filter((e) => e.startsWith("stop"))).toEqual(["stop model", "stop redis"]);
  });

  it("stops the others when a part's stop never settles, after waiting for it a while", async () => {
    vi.useFakeTimers();
    try {
      const { events, part } = recorder();
      const stack = new LocalStack();
      await stack.start(part("redis"), {});
      stack.keep(() => new Promise(() => events.push("worker asked to stop")));
      let stopped = false;
      const stopping = stack.stop().then(() => void (stopped = true));
      await vi.advanceTimersByTimeAsync(14_000);
      expect({ stopped, events: events.filter((e) => !e.startsWith("start")) }).toEqual({
        stopped: false,
        events: ["worker asked to stop"],
      });
      await vi.advanceTimersByTimeAsync(1_000);
      await stopping;
      expect(events.filter((e) => !e.startsWith("start"))).toEqual(["worker asked to stop", "stop redis"]);
    } finally {
      vi.useRealTimers();
    }
  });
});
