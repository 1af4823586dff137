/**
 * @module
 * The faults every fake shares (dev/fakes/faults.ts): the next N calls of a route or a seeded random share
 * answer 429/5xx, hang or drop after doing the work, or come late, and everything injected can be read back.
 * Driven here through the Slack and Twilio fakes.
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
interface Injected {
  route: string;
  rule: number;
  fault: { kind: string };
  call: Record<string, string>;
}
const injected = async () => (await slack.control<{ injected: Injected[] }>("/__faults")).injected;

describe("scripted faults", () => {
  it("refuses the next N matching calls after letting some through, then answers normally", async () => {
    await slack.control("/__faults", { route: "chat.postMessage", match: { channel: "C0F1" }, fault: { kind: "status", status: 503 }, after: 1, times: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post("C0F1")).status);
    expect(statuses).toEqual([200, 503, 503, 200]);
    expect((await post("C0OTHER")).status).toBe(200);
    expect(await posted("C0F1")).toBe(2);
    expect((await injected()).map((i) => [i.route, i.fault.kind, i.call.channel])).toEqual([["chat.postMessage", "status", "C0F1"], ["chat.postMessage", "status", "C0F1"]]);
  });

  it("answers 429 with Retry-After in the platform's shape", async () => {
    await slack.control("/__faults", { route: "chat.postMessage", fault: { kind: "ratelimit", retryAfter: 7 } });
    const answer = await post("C0F2");
    expect([answer.status, answer.retryAfter, answer.body]).toEqual([429, "7", { ok: false, error: "ratelimited" }]);
  });

  it("does the work, then never answers (hang) or closes the connection (drop)", async () => {
    await slack.control("/__faults", { rules: [{ route: "chat.postMessage", match: { channel: "C0HANG" }, fault: { kind: "hang" } }, { route: "chat.postMessage", match: { channel: "C0DROP" }, fault: { kind: "drop" } }] });
    const hung = fetch(`${slack.url}/chat.postMessage`, { method: "POST", headers: { Authorization: "Bearer xoxb-test-token", "Content-Type": "application/json" }, body: JSON.stringify({ channel: "C0HANG", text: "x" }), signal: AbortSignal.timeout(300) });
    await expect(hung).rejects.toThrow(/timeout|aborted/i);
    await expect(post("C0DROP")).rejects.toThrow();
    expect([await posted("C0HANG"), await posted("C0DROP")]).toEqual([1, 1]);
  });

  it("delays an answer that then arrives normally", async () => {
    await slack.control("/__faults", { route: "chat.postMessage", fault: { kind: "delay", delayMs: 150 } });
    const started = Date.now();
    expect((await post("C0SLOW")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("injects into a seeded random share of calls, the same calls for the same seed", async () => {
    const run = async () => {
      await slack.control("/__reset", {});
      await slack.control("/__faults", { route: "chat.postMessage", rate: 0.3, seed: 42, fault: [{ kind: "status", status: 500 }, { kind: "ratelimit" }] });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await post("C0RAND", `m${i}`)).status);
      return statuses;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    const refused = first.filter((s) => s !== 200).length;
    expect(refused).toBeGreaterThan(4);
    expect(refused).toBeLessThan(24);
    expect(new Set(first)).toEqual(new Set([200, 500, 429]));
    expect(await injected()).toHaveLength(refused);
  });

  it("refuses a fault the fake cannot inject, and a malformed rule, saying why", async () => {
    await expect(slack.control("/__faults", { fault: { kind: "garbage" } })).rejects.toThrow(/cannot inject .*garbage/);
    await expect(slack.control("/__faults", { fault: { kind: "status", status: 200 } })).rejects.toThrow(/400/);
  });

  it("keeps the older /__fail shorthand", async () => {
    await slack.control("/__fail", { channel: "C0OLD", error: "is_archived" });
    expect((await post("C0OLD")).body).toEqual({ ok: false, error: "is_archived" });
    expect((await post("C0OLD")).body.ok).toBe(true);
  });
});
