/**
 * @module
 * The faults every fake shares (dev/fakes/faults.ts, scripted like the fault proxy's and the QStash stand-in's):
 * the next N calls of a route or a seeded random share answer 429/5xx, drop the connection before or after doing
 * the work, hang after doing it, come late, or answer garbage after doing it, and everything injected can be read
 * back. Driven here through the Slack fake.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSlack, type SlackHarness } from "./slack-client.ts";

let slack: SlackHarness;
beforeAll(async () => {
  slack = await startSlack({ rateLimits: { enabled: false } });
});
afterAll(() => slack.close());
beforeEach(() => slack.control("/__reset", {}));

const post = (channel: string, text = "hello") => slack.call("chat.postMessage", { channel, text });
const posted = async (channel: string) => (await slack.control<unknown[]>(`/__calls?channel=${channel}`)).length;
const fail = (rule: Record<string, unknown>) => slack.control<{ ok: boolean; rule: { id: number } }>("/__fail", rule);
const injected = (query = "") =>
  slack.control<{ rule: number; fault: string; path: string; route: string; channel?: string; at: number }[]>(
    `/__faults${query}`,
  );
const onChannel = (channel: string) => `"channel":"${channel}"`;

describe("scripted faults", () => {
  it("refuses the next N matching calls after letting some through, then answers normally", async () => {
    const { rule } = await fail({
      fault: "refuse",
      status: 503,
      path: "/chat.postMessage",
      bodyContains: onChannel("C0F1"),
      after: 1,
      times: 2,
    });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post("C0F1")).status);
    expect(statuses).toEqual([200, 503, 503, 200]);
    expect((await post("C0F10")).status).toBe(200);
    expect(await posted("C0F1")).toBe(2);
    expect((await injected()).map((i) => [i.rule, i.fault, i.path, i.channel])).toEqual([
      [rule.id, "refuse", "/chat.postMessage", "C0F1"],
      [rule.id, "refuse", "/chat.postMessage", "C0F1"],
    ]);
    expect(await slack.control<unknown[]>("/__fail")).toEqual([]);
  });

  it("answers 429 with Retry-After in the platform's shape", async () => {
    await fail({ fault: "ratelimit", retryAfter: 7, path: "/chat.postMessage" });
    const answer = await post("C0F2");
    expect([answer.status, answer.retryAfter, answer.body]).toEqual([429, "7", { ok: false, error: "ratelimited" }]);
  });

  it("drops the connection before the work, or after it; or does the work and never answers", async () => {
    await fail({ fault: "drop_before", bodyContains: onChannel("C0BEFORE") });
    await fail({ fault: "drop_after", bodyContains: onChannel("C0AFTER") });
    await fail({ fault: "hang", bodyContains: onChannel("C0HANG") });
    await expect(post("C0BEFORE")).rejects.toThrow();
    await expect(post("C0AFTER")).rejects.toThrow();
    const hung = fetch(`${slack.url}/chat.postMessage`, {
      method: "POST",
      headers: { Authorization: "Bearer xoxb-test-token", "Content-Type": "application/json" },
      body: JSON.stringify({ channel: "C0HANG", text: "x" }),
      signal: AbortSignal.timeout(300),
    });
    await expect(hung).rejects.toThrow(/timeout|aborted/i);
    expect([await posted("C0BEFORE"), await posted("C0AFTER"), await posted("C0HANG")]).toEqual([0, 1, 1]);
  });

  it("delays an answer that then arrives normally", async () => {
    await fail({ fault: "delay", delayMs: 150 });
    const started = Date.now();
    expect((await post("C0SLOW")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("injects into a seeded random share of calls, the same calls for the same seed", async () => {
    const run = async () => {
      await slack.control("/__reset", {});
      await fail({ fault: "refuse", path: "/chat.postMessage", rate: 0.3, seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await post("C0RAND", `m${i}`)).status);
      return statuses;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    const refused = first.filter((s) => s !== 200).length;
    expect(refused).toBeGreaterThan(4);
    expect(refused).toBeLessThan(24);
    expect(await injected("?fault=refuse")).toHaveLength(refused);
  });

  it("answers garbage after doing the work: a 200 that is not JSON, or JSON of another shape", async () => {
    await fail({ fault: "garbage", path: "/chat.postMessage", bodyContains: onChannel("C0JUNK") });
    const notJson = await post("C0JUNK");
    expect([notJson.status, typeof (notJson.body as { raw?: unknown }).raw]).toEqual([200, "string"]);
    await fail({ fault: "garbage", shape: "wrong_shape", bodyContains: onChannel("C0JUNK") });
    expect(await post("C0JUNK")).toMatchObject({ status: 200, body: { ok: true } });
    expect(((await post("C0JUNK")).body as { ts?: unknown }).ts).toBeTypeOf("string");
    await fail({ fault: "garbage", shape: "wrong_shape", body: { messages: 7 }, bodyContains: onChannel("C0JUNK") });
    expect((await post("C0JUNK")).body).toEqual({ messages: 7 });
    expect(await posted("C0JUNK")).toBe(4);
  });

  it("refuses a fault the fake cannot inject, and a malformed rule, saying why", async () => {
    await expect(fail({ fault: "skip" })).rejects.toThrow(/cannot inject .*skip/);
    await expect(fail({ fault: "refuse", status: 200 })).rejects.toThrow(/400/);
  });

  it("keeps the older shorthand, one field to match", async () => {
    await fail({ channel: "C0OLD", error: "is_archived" });
    expect((await post("C0OLD")).body).toEqual({ ok: false, error: "is_archived" });
    expect((await post("C0OLD")).body.ok).toBe(true);
    await expect(fail({ channel: "C0OLD", text: "x", status: 500 })).rejects.toThrow(/one field/);
  });
});
