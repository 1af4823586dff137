import { describe, expect, it } from "vitest";
import { GatewaySession } from "../../lib/platforms/discord/gateway/session.ts";
import { identifyGroups } from "../../lib/platforms/discord/gateway/shards.ts";

describe("Discord shards", () => {
  it("start in groups of max_concurrency, in shard order", () => {
    expect(identifyGroups({ shards: 5, maxConcurrency: 2 })).toEqual([[[0, 5], [1, 5]], [[2, 5], [3, 5]], [[4, 5]]]);
    expect(identifyGroups({ shards: 1, maxConcurrency: 1 })).toEqual([[[0, 1]]]);
  });

  it("identify as their shard, and a session of another layout is identified anew, not resumed", () => {
    const opts = { token: "t", tokenFingerprint: "fp", gatewayUrl: "wss://gateway.test", random: () => 0.5 };
    const resumable = { session: { sessionId: "s", resumeUrl: "wss://resume.test", seq: 3, botUserId: "42" }, identifies: [], shard: [1, 2] as [number, number] };
    const same = new GatewaySession({ ...opts, shard: [1, 2], snapshot: resumable });
    expect(same.handle({ type: "start", now: 1 })[0]).toMatchObject({ mode: "resume" });
    const resharded = new GatewaySession({ ...opts, shard: [1, 4], snapshot: resumable });
    expect(resharded.handle({ type: "start", now: 1 })[0]).toMatchObject({ mode: "identify" });
    resharded.handle({ type: "open", connection: 1 });
    const hello = resharded.handle({ type: "payload", connection: 1, now: 1, payload: { op: 10, d: { heartbeat_interval: 40_000 } } });
    expect(hello.find((a) => a.type === "send")).toMatchObject({ payload: { op: 2, d: { shard: [1, 4] } } });
  });
});
