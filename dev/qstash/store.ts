/**
 * @module
 * Pending messages, in-flight leases, flow-control gates, deduplication and the DLQ, in Redis under one key prefix.
 * Every state change is one Lua script, so two stand-ins sharing a prefix never deliver the same claim twice, and a
 * stand-in that stops mid-delivery leaves a lease that runs out and puts the message back.
 */
import { Redis } from "ioredis";
import { gatesOf, storedMessageSchema, type StoredMessage } from "./message.ts";
import type { QStashClock } from "./clock.ts";
import type { PublishPlan } from "./publish-request.ts";

/** QStash keeps a deduplication id for 10 minutes (of the stand-in's clock: see ./clock.ts). */
const DEDUPLICATION_WINDOW_MS = 10 * 60_000;
/** A virtual clock may stand still for hours of wall-clock time: its deduplication ids outlive their window. */
const VIRTUAL_DEDUPLICATION_KEEP_MS = 24 * 3_600_000;
/** Time beyond a delivery's own timeout before another instance may take it over. */
const LEASE_MARGIN_MS = 10_000;
/** How many due messages one claim looks at, so that messages held back by a full gate do not starve the rest. */
const CLAIM_SCAN = 200;

const RELEASE_GATES = `
local function release_gates(p, id)
  local meta = redis.call('HGET', p..'meta', id)
  if not meta then return end
  for _, g in ipairs(cjson.decode(meta).gates) do
    if tonumber(redis.call('DECR', p..'gate:'..g[1])) < 0 then redis.call('SET', p..'gate:'..g[1], 0) end
  end
end
`;

/**
 * ARGV: 1 prefix, 2 id, 3 message JSON, 4 due at, 5 meta JSON, 6 deduplication key ('' for none), 7 window ms,
 * 8 now (the stand-in's clock), 9 how long Redis keeps the id (wall clock). The id is kept as "id|expires at".
 */
const PUBLISH = `
local p, id = ARGV[1], ARGV[2]
if ARGV[6] ~= '' then
  local existing = redis.call('GET', p..'dedup:'..ARGV[6])
  if existing then
    local bar = string.find(existing, '|', 1, true)
    if not bar then return {existing, 1} end
    if tonumber(string.sub(existing, bar + 1)) > tonumber(ARGV[8]) then return {string.sub(existing, 1, bar - 1), 1} end
  end
  redis.call('SET', p..'dedup:'..ARGV[6], id..'|'..(tonumber(ARGV[8]) + tonumber(ARGV[7])), 'PX', ARGV[9])
end
redis.call('SET', p..'msg:'..id, ARGV[3])
redis.call('HSET', p..'meta', id, ARGV[5])
redis.call('ZADD', p..'due', ARGV[4], id)
return {id, 0}
`;

/**
 * ARGV: 1 prefix, 2 now (the stand-in's clock, for due times), 3 limit, 4 scan size, 5 now (wall clock, for leases).
 */
const CLAIM = `${RELEASE_GATES}
local p, now, limit, wall = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[5])
for _, id in ipairs(redis.call('ZRANGEBYSCORE', p..'inflight', '-inf', wall)) do
  redis.call('ZREM', p..'inflight', id)
  release_gates(p, id)
  -- it was claimed before anything now due: it goes first again
  redis.call('ZADD', p..'due', 0, id)
end
local claimed = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', p..'due', '-inf', now, 'LIMIT', 0, tonumber(ARGV[4]))) do
  if #claimed >= limit then break end
  local raw = redis.call('HGET', p..'meta', id)
  if not raw then
    redis.call('ZREM', p..'due', id)
  else
    local meta = cjson.decode(raw)
    local free = true
    for _, g in ipairs(meta.gates) do
      if tonumber(redis.call('GET', p..'gate:'..g[1]) or '0') >= g[2] then free = false end
    end
    if free then
      for _, g in ipairs(meta.gates) do redis.call('INCR', p..'gate:'..g[1]) end
      redis.call('ZREM', p..'due', id)
      redis.call('ZADD', p..'inflight', wall + meta.leaseMs, id)
      claimed[#claimed + 1] = id
    end
  end
end
return claimed
`;

const SETTLE = `${RELEASE_GATES}
local p, id, action = ARGV[1], ARGV[2], ARGV[3]
if redis.call('ZREM', p..'inflight', id) == 0 then return 0 end
release_gates(p, id)
if action == 'release' then
  redis.call('ZADD', p..'due', 0, id)
elseif action == 'retry' then
  redis.call('SET', p..'msg:'..id, ARGV[4])
  redis.call('ZADD', p..'due', ARGV[5], id)
else
  redis.call('DEL', p..'msg:'..id)
  redis.call('HDEL', p..'meta', id)
  if action == 'dlq' then
    redis.call('SET', p..'dlq:'..ARGV[4], ARGV[5])
    redis.call('ZADD', p..'dlq', ARGV[6], ARGV[4])
  end
end
return 1
`;

const DISCARD = `
local p, id = ARGV[1], ARGV[2]
local due = redis.call('ZSCORE', p..'due', id)
if not due then return false end
redis.call('ZREM', p..'due', id)
redis.call('DEL', p..'msg:'..id)
redis.call('HDEL', p..'meta', id)
return due
`;

/** What happens to a claimed message after an attempt. */
export type Settlement =
  | { action: "done" }
  | { action: "release" }
  | { action: "retry"; message: StoredMessage; dueAt: number }
  | { action: "dlq"; dlqId: string; record: DlqRecord };

/** A dead-lettered message, in the shape `client.dlq.listMessages()` returns. */
export type DlqRecord = Record<string, unknown> & { dlqId: string; url: string; createdAt: number };

export class QStashStore {
  readonly redis: Redis;
  readonly #prefix: string;
  readonly #clock: QStashClock;

  constructor(redisUrl: string, prefix: string, clock: QStashClock) {
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
    this.#prefix = prefix;
    this.#clock = clock;
  }

  async publish(plan: PublishPlan): Promise<{ messageId: string; deduplicated: boolean }> {
    const keepMs = this.#clock.setting.mode === "virtual" ? VIRTUAL_DEDUPLICATION_KEEP_MS : DEDUPLICATION_WINDOW_MS;
    const meta = JSON.stringify({ gates: gatesOf(plan.message), leaseMs: plan.message.timeoutMs + LEASE_MARGIN_MS });
    const [messageId, deduplicated] = (await this.#run(PUBLISH, [
      plan.message.messageId,
      JSON.stringify(plan.message),
      plan.dueAt,
      meta,
      plan.deduplicationKey ?? "",
      DEDUPLICATION_WINDOW_MS,
      this.#clock.now(),
      keepMs,
    ])) as [string, number];
    return { messageId, deduplicated: deduplicated === 1 };
  }

  /** Claims up to `limit` due messages whose gates have room; each comes with a lease (in wall-clock time). */
  async claimDue(limit: number): Promise<string[]> {
    return (await this.#run(CLAIM, [this.#clock.now(), limit, CLAIM_SCAN, Date.now()])) as string[];
  }

  /** When the earliest waiting message is due (a message handed back is due at 0); undefined when none waits. */
  async nextDueAt(): Promise<number | undefined> {
    const [, score] = await this.redis.zrange(`${this.#prefix}due`, "0", "0", "WITHSCORES");
    return score === undefined ? undefined : Number(score);
  }

  /** How many messages wait (due now or later). */
  async waiting(): Promise<number> {
    return this.redis.zcard(`${this.#prefix}due`);
  }

  async load(messageId: string): Promise<StoredMessage | undefined> {
    const raw = await this.redis.get(`${this.#prefix}msg:${messageId}`);
    return raw === null ? undefined : storedMessageSchema.parse(JSON.parse(raw));
  }

  /** False when the lease was lost (another instance took the message over): the outcome is dropped. */
  async settle(messageId: string, settlement: Settlement): Promise<boolean> {
    const extra =
      settlement.action === "retry"
        ? [JSON.stringify(settlement.message), settlement.dueAt]
        : settlement.action === "dlq"
          ? [settlement.dlqId, JSON.stringify(settlement.record), settlement.record.createdAt]
          : [];
    return (await this.#run(SETTLE, [messageId, settlement.action, ...extra])) === 1;
  }

  /** Replaces a waiting or claimed message's stored form (a schedule's message once its slot fired). */
  async rewrite(message: StoredMessage): Promise<void> {
    await this.redis.set(`${this.#prefix}msg:${message.messageId}`, JSON.stringify(message), "XX");
  }

  /** Drops a message that waits (not one in flight); its due time when it waited, else undefined. */
  async discard(messageId: string): Promise<number | undefined> {
    const dueAt = (await this.#run(DISCARD, [messageId])) as string | null;
    return dueAt === null ? undefined : Number(dueAt);
  }

  /** When a waiting message is due; undefined when it does not wait. */
  async dueAt(messageId: string): Promise<number | undefined> {
    const score = await this.redis.zscore(`${this.#prefix}due`, messageId);
    return score === null ? undefined : Number(score);
  }

  async listDlq(): Promise<DlqRecord[]> {
    const ids = await this.redis.zrange(`${this.#prefix}dlq`, "0", "-1");
    if (ids.length === 0) return [];
    const raws = await this.redis.mget(ids.map((id) => `${this.#prefix}dlq:${id}`));
    return raws.flatMap((raw) => (raw === null ? [] : [JSON.parse(raw) as DlqRecord]));
  }

  async deleteDlq(dlqIds: string[]): Promise<number> {
    if (dlqIds.length === 0) return 0;
    const removed = await this.redis.zrem(`${this.#prefix}dlq`, ...dlqIds);
    await this.redis.del(...dlqIds.map((id) => `${this.#prefix}dlq:${id}`));
    return removed;
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  #run(script: string, args: (string | number)[]): Promise<unknown> {
    return this.redis.eval(script, 0, this.#prefix, ...args.map(String));
  }
}
