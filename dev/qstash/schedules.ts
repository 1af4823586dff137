/**
 * @module
 * QStash schedules (`client.schedules.create/get/list/delete/pause/resume`): a schedule keeps the publish request it
 * was created with and one waiting message for its next slot (by its cron, ./cron.ts, on the stand-in's clock).
 * When that message's first attempt comes, the slot fires: the next slot's message is planned, and this one goes
 * out signed like any message (retries, callbacks and faults included) with `Upstash-Schedule-Id`. A slot message of
 * a paused, deleted or overwritten schedule is dropped. Deleting or pausing drops the waiting message at once.
 */
import type { Redis } from "ioredis";
import type { QStashClock } from "./clock.ts";
import { headerLists } from "./delivery.ts";
import { CronSyntaxError, nextAfter, parseCron } from "./cron.ts";
import { newId, type StoredMessage } from "./message.ts";
import { planPublish, PublishRequestError, type PublishInput } from "./publish-request.ts";
import type { QStashStore } from "./store.ts";

export class ScheduleError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

interface ScheduleRecord {
  scheduleId: string;
  cron: string;
  destination: string;
  headers: Record<string, string>;
  bodyBase64: string;
  createdAt: number;
}

/** Moves the waiting message from ARGV[2] to ARGV[3] (and the last slot to ARGV[4]) only if ARGV[2] still waits. */
const FIRE = `
local key = ARGV[1]
if redis.call('HGET', key, 'pending') ~= ARGV[2] or redis.call('HGET', key, 'paused') == '1' then return 0 end
redis.call('HSET', key, 'pending', ARGV[3], 'last', ARGV[4])
return 1
`;

export class ScheduleBook {
  readonly #store: QStashStore;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #clock: QStashClock;
  readonly #onPublished: () => void;

  constructor(store: QStashStore, prefix: string, clock: QStashClock, onPublished: () => void) {
    this.#store = store;
    this.#redis = store.redis;
    this.#prefix = prefix;
    this.#clock = clock;
    this.#onPublished = onPublished;
  }

  /** POST /v2/schedules/{destination} with Upstash-Cron (and Upstash-Schedule-Id to overwrite). */
  async create(input: PublishInput): Promise<{ scheduleId: string }> {
    const cron = input.headers["upstash-cron"] ?? "";
    const now = this.#clock.now();
    nextSlot(cron, now);
    const url = planPublish(input, now).message.url;
    const scheduleId = input.headers["upstash-schedule-id"] || newId("scd");
    const existing = await this.#load(scheduleId);
    if (existing) await this.#dropPending(scheduleId);
    const headers = Object.fromEntries(
      Object.entries(input.headers).filter(([name]) => name !== "authorization" && name !== "upstash-schedule-id"),
    );
    const record: ScheduleRecord = {
      scheduleId,
      cron,
      destination: url,
      headers,
      bodyBase64: input.body.toString("base64"),
      createdAt: existing?.createdAt ?? now,
    };
    await this.#redis
      .multi()
      .hset(this.#key(scheduleId), "record", JSON.stringify(record), "paused", "0")
      .zadd(`${this.#prefix}schedules`, record.createdAt, scheduleId)
      .exec();
    await this.#redis.hset(this.#key(scheduleId), "pending", await this.#planSlot(record, now));
    return { scheduleId };
  }

  async get(scheduleId: string): Promise<Record<string, unknown>> {
    const fields = await this.#redis.hgetall(this.#key(scheduleId));
    if (!fields.record) throw new ScheduleError(404, "schedule not found");
    const record = JSON.parse(fields.record) as ScheduleRecord;
    const plan = planPublish(slotInput(record), record.createdAt).message;
    const next = fields.pending ? await this.#store.dueAt(fields.pending) : undefined;
    return {
      scheduleId,
      cron: record.cron,
      createdAt: record.createdAt,
      destination: record.destination,
      method: plan.method,
      header: headerLists(plan.headers),
      body: Buffer.from(record.bodyBase64, "base64").toString("utf8"),
      retries: plan.maxRetries,
      ...(plan.callback ? { callback: plan.callback } : {}),
      ...(plan.failureCallback ? { failureCallback: plan.failureCallback } : {}),
      isPaused: fields.paused === "1",
      ...(next === undefined ? {} : { nextScheduleTime: next }),
      ...(fields.last ? { lastScheduleTime: Number(fields.last) } : {}),
    };
  }

  async list(): Promise<Record<string, unknown>[]> {
    const ids = await this.#redis.zrange(`${this.#prefix}schedules`, "0", "-1");
    return Promise.all(ids.map((id) => this.get(id)));
  }

  async delete(scheduleId: string): Promise<void> {
    await this.#existing(scheduleId);
    await this.#dropPending(scheduleId);
    await this.#redis.multi().del(this.#key(scheduleId)).zrem(`${this.#prefix}schedules`, scheduleId).exec();
  }

  async pause(scheduleId: string): Promise<void> {
    await this.#existing(scheduleId);
    await this.#redis.hset(this.#key(scheduleId), "paused", "1");
    await this.#dropPending(scheduleId);
  }

  async resume(scheduleId: string): Promise<void> {
    const record = await this.#existing(scheduleId);
    if ((await this.#redis.hget(this.#key(scheduleId), "paused")) !== "1") return;
    await this.#dropPending(scheduleId);
    const pending = await this.#planSlot(record, this.#clock.now());
    await this.#redis.hset(this.#key(scheduleId), "paused", "0", "pending", pending);
  }

  /**
   * The first attempt of a slot's message: plans the next slot and answers the message to deliver (without its
   * slot), or undefined when the slot is not its schedule's any more (paused, deleted, overwritten).
   */
  async fire(message: StoredMessage): Promise<StoredMessage | undefined> {
    const { scheduleId, slotAt } = message;
    if (scheduleId === undefined || slotAt === undefined) return message;
    const record = await this.#load(scheduleId);
    if (!record) return undefined;
    const next = await this.#planSlot(record, Math.max(slotAt, this.#clock.now()));
    const fired = await this.#redis.eval(FIRE, 0, this.#key(scheduleId), message.messageId, next, String(slotAt));
    if (fired !== 1) {
      await this.#store.discard(next);
      return undefined;
    }
    const { slotAt: _fired, ...delivered } = message;
    await this.#store.rewrite(delivered);
    return delivered;
  }

  /** Stores the message of the first slot after `after`; answers its id. */
  async #planSlot(record: ScheduleRecord, after: number): Promise<string> {
    const slotAt = nextSlot(record.cron, after);
    const plan = planPublish(slotInput(record), slotAt);
    plan.message.scheduleId = record.scheduleId;
    plan.message.slotAt = slotAt;
    const { messageId } = await this.#store.publish({ message: plan.message, dueAt: plan.dueAt });
    this.#onPublished();
    return messageId;
  }

  async #dropPending(scheduleId: string): Promise<void> {
    const pending = await this.#redis.hget(this.#key(scheduleId), "pending");
    if (pending) await this.#store.discard(pending);
    await this.#redis.hdel(this.#key(scheduleId), "pending");
  }

  async #existing(scheduleId: string): Promise<ScheduleRecord> {
    const record = await this.#load(scheduleId);
    if (!record) throw new ScheduleError(404, "schedule not found");
    return record;
  }

  async #load(scheduleId: string): Promise<ScheduleRecord | undefined> {
    const raw = await this.#redis.hget(this.#key(scheduleId), "record");
    return raw === null ? undefined : (JSON.parse(raw) as ScheduleRecord);
  }

  #key(scheduleId: string): string {
    return `${this.#prefix}schedule:${scheduleId}`;
  }
}

function slotInput(record: ScheduleRecord): PublishInput {
  const headers = Object.fromEntries(Object.entries(record.headers).filter(([name]) => name !== "upstash-cron"));
  return { destination: record.destination, headers, body: Buffer.from(record.bodyBase64, "base64") };
}

/** The cron's first slot after `after`; a malformed cron is refused with QStash's text. */
function nextSlot(cron: string, after: number): number {
  try {
    return nextAfter(parseCron(cron), after);
  } catch (err) {
    if (err instanceof CronSyntaxError) throw new PublishRequestError(`Invalid cron expression ${err.message}`);
    throw err;
  }
}
