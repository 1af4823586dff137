import { describe, expect, it } from "vitest";
import type { Logger } from "../../lib/log.ts";
import { IdentifyTurns } from "../../lib/platforms/discord/gateway/identify-turns.ts";
import { IDENTIFY_BUDGET, OPCODE } from "../../lib/platforms/discord/gateway/protocol.ts";
import { GatewaySession } from "../../lib/platforms/discord/gateway/session.ts";
import type { ShardTuple } from "../../lib/platforms/discord/gateway/session-io.ts";
import {
  ShardCoordinator,
  type ShardLayout,
  type ShardLayoutState,
} from "../../lib/platforms/discord/gateway/shard-layout.ts";
import type { GatewayStatus } from "../../lib/platforms/discord/gateway/status.ts";

const quiet: Logger = { info() {}, warn() {}, error() {} };
const HOUR = 3_600_000;

/** A coordinator over shards whose status the test sets; records what it ensured and retired. */
function harness(recommendations: ShardLayout[]) {
  let state: ShardLayoutState | undefined;
  let now = 1_000_000;
  const status = new Map<string, Partial<GatewayStatus>>();
  const ensured: string[] = [];
  const retired: string[] = [];
  const asked: ShardLayout[] = [];
  const key = ([id, count]: ShardTuple) => `${id}/${count}`;
  const coordinator = new ShardCoordinator({
    load: async () => state,
    save: async (s) => void (state = structuredClone(s)),
    recommend: async () => {
      const next = recommendations.length > 1 ? recommendations.shift()! : recommendations[0]!;
      asked.push(next);
      return next;
    },
    shards: {
      ensure: async (shard) => {
        ensured.push(key(shard));
        return {
          phase: "connecting",
          connection: 1,
          sessionId: null,
          seq: null,
          fatalCloseCode: null,
          ...status.get(key(shard)),
        };
      },
      retire: async (shard) => void retired.push(key(shard)),
    },
    log: quiet,
    now: () => now,
  });
  return { coordinator, status, ensured, retired, asked, advance: (ms: number) => void (now += ms) };
}

describe("ShardCoordinator", () => {
  it("starts the recommended layout and asks Discord again only after the check interval", async () => {
    const h = harness([{ count: 2, maxConcurrency: 1 }]);
    expect((await h.coordinator.tick()).active).toEqual({ count: 2, maxConcurrency: 1 });
    await h.coordinator.tick();
    expect(h.asked).toHaveLength(1);
    expect(h.ensured).toEqual(["0/2", "1/2", "0/2", "1/2"]);
    h.advance(HOUR);
    await h.coordinator.tick();
    expect(h.asked).toHaveLength(2);
  });

  it("keeps waking the layout in use while Discord cannot be asked", async () => {
    const ensured: ShardTuple[] = [];
    const coordinator = new ShardCoordinator({
      load: async () => ({ active: { count: 2, maxConcurrency: 1 }, next: null, checkedAt: 0 }),
      save: async () => {},
      recommend: () => Promise.reject(new Error("Discord answered HTTP 502")),
      shards: {
        ensure: async (shard) => {
          ensured.push(shard);
          return null;
        },
        retire: async () => {},
      },
      log: quiet,
      now: () => 10 * HOUR,
    });
    expect((await coordinator.tick()).active?.count).toBe(2);
    expect(ensured).toEqual([
      [0, 2],
      [1, 2],
    ]);
  });

  it("asks again on the next tick after a shard was closed with 4011 (sharding required)", async () => {
    const h = harness([
      { count: 1, maxConcurrency: 1 },
      { count: 3, maxConcurrency: 1 },
    ]);
    h.status.set("0/1", { phase: "stopped", fatalCloseCode: 4011 });
    await h.coordinator.tick();
    const state = await h.coordinator.tick();
    expect(h.asked).toHaveLength(2);
    expect(state).toMatchObject({ active: { count: 1 }, next: { count: 3 } });
  });

  it("keeps the old layout until every shard of the new one is ready, then retires the old one", async () => {
    const h = harness([
      { count: 2, maxConcurrency: 1 },
      { count: 4, maxConcurrency: 1 },
    ]);
    await h.coordinator.tick();
    h.advance(HOUR);
    for (const id of [0, 1, 2]) h.status.set(`${id}/4`, { phase: "ready" });
    expect(await h.coordinator.tick()).toMatchObject({ active: { count: 2 }, next: { count: 4 } });
    expect(h.retired).toEqual([]);
    h.status.set("3/4", { phase: "ready" });
    expect(await h.coordinator.tick()).toMatchObject({ active: { count: 4 }, next: null });
    expect(h.retired).toEqual(["0/2", "1/2"]);
  });

  it("drops a half-started layout when Discord's recommendation goes back to the count in use", async () => {
    const h = harness([
      { count: 2, maxConcurrency: 1 },
      { count: 3, maxConcurrency: 1 },
      { count: 2, maxConcurrency: 1 },
    ]);
    await h.coordinator.tick();
    h.advance(HOUR);
    await h.coordinator.tick();
    h.advance(HOUR);
    expect(await h.coordinator.tick()).toMatchObject({ active: { count: 2 }, next: null });
    expect(h.retired).toEqual(["0/3", "1/3", "2/3"]);
  });
});

function memoryTurns(recent: number[] = []) {
  const last = new Map<number, number>();
  return new IdentifyTurns(
    {
      last: async (b) => last.get(b),
      setLast: async (b, at) => void last.set(b, at),
      recent: async () => recent,
      setRecent: async (t) => void (recent = t),
    },
    5_000,
  );
}

describe("IdentifyTurns", () => {
  it("gives no turn once the bot's IDENTIFYs of the last 24 hours reach the budget, whichever shards spent them", async () => {
    const now = 100 * HOUR;
    const spent = Array.from({ length: IDENTIFY_BUDGET }, (_, i) => now - 23 * HOUR + i);
    expect(await memoryTurns(spent).reserve(7, 16, now)).toBeNull();
    expect(await memoryTurns(spent.slice(1)).reserve(7, 16, now)).toBe(0);
  });

  it("spaces turns within a concurrency bucket and lets different buckets go at once", async () => {
    const turns = memoryTurns();
    const waits = [];
    for (const shard of [0, 1, 2, 3, 4]) waits.push(await turns.reserve(shard, 2, 100));
    expect(waits).toEqual([0, 0, 5_000, 5_000, 10_000]);
    expect(await turns.reserve(0, 2, 100 + 60_000)).toBe(0);
  });
});

describe("GatewaySession with a shard", () => {
  it("names its shard in IDENTIFY", () => {
    const s = new GatewaySession({
      token: "t",
      tokenFingerprint: "fp",
      gatewayUrl: "wss://gateway.test",
      random: () => 0.5,
      shard: [3, 4],
    });
    s.handle({ type: "start", now: 1 });
    s.handle({ type: "open", connection: s.connection });
    const actions = s.handle({
      type: "payload",
      connection: s.connection,
      now: 1,
      payload: { op: OPCODE.HELLO, d: { heartbeat_interval: 1_000 } },
    });
    const identify = actions.find((a) => a.type === "send" && a.payload.op === OPCODE.IDENTIFY);
    expect(identify).toMatchObject({ payload: { d: { shard: [3, 4] } } });
  });
});
