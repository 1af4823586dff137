/**
 * @module
 * bench/chaos's evidence: when a promise was broken, the whole trace of each conversation a problem names goes to
 * one file (named in the JSON line), so that a one-off can be read and replayed. Per conversation: the webhook
 * deliveries the bench sent (time, status, retry; its approval's presses, by the asker or a stranger, and its Discord
 * reactions, Gateway dispatches), the faults injected on its calls (and the Redis and model faults
 * in its time span), what each platform fake received for its place, the Worker's log lines about it and the QStash
 * deliveries of its jobs, and the Redis keys of its place at the end. Ids, kinds, statuses and times only
 * (./trace-ids.ts):
 * no message text, no token, no phone number.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Redis } from "@upstash/redis";
import { scanKeys } from "./checks.ts";
import type { LogEvent } from "./exercised.ts";
import type { Conversation } from "./plan.ts";
import type { Delivery } from "./send.ts";
import { affectedBy, carries, idsOf, idsOnly, messageOf, redact, secretsOf } from "./trace-ids.ts";

type Row = Record<string, unknown>;

export interface TraceSources {
  /** Every webhook delivery the bench sent, and each Gateway dispatch of a reaction (200: a session took it). */
  deliveries: readonly Delivery[];
  /** The faults injected, per boundary (./faults.ts), each with its call's fields. */
  faults: Readonly<Record<string, readonly Row[]>>;
  /** What each platform fake received (its API log or recorded calls), per fake. */
  platformCalls: Readonly<Record<string, readonly Row[]>>;
  events: readonly LogEvent[];
  /** The Redis keys that carry one of these ids, with their type and TTL. */
  redisKeys(ids: readonly string[]): Promise<Row[]>;
}

export interface TraceRequest {
  dir: string;
  seed: number;
  /** The promise counters that are not 0. */
  counters: Readonly<Record<string, number>>;
  problems: readonly string[];
  conversations: readonly Conversation[];
  sources: TraceSources;
}

/** Writes the trace file and answers its path. */
export async function writeTrace(r: TraceRequest): Promise<string> {
  const { affected, unattributed } = affectedBy(r.problems, r.conversations);
  const traced = [];
  for (const c of r.conversations) {
    const counters = affected.get(c.id);
    if (counters) traced.push(await traceOf(c, [...counters], r.sources));
  }
  const trace = { seed: r.seed, counters: r.counters, unattributed: [...unattributed], conversations: traced };
  await mkdir(r.dir, { recursive: true });
  const path = join(r.dir, `seed-${r.seed}-${Date.now()}.json`);
  await writeFile(path, `${JSON.stringify(trace, null, 1)}\n`);
  return path;
}

async function traceOf(c: Conversation, counters: string[], s: TraceSources) {
  const ids = idsOf(c);
  const secrets = secretsOf(c);
  const keep = (rows: readonly Row[]) => rows.map((row) => idsOnly(row, secrets));
  const own = s.events.filter((e) => carries(e, ids));
  // A press or a ✅ on its approval's question is logged under the question's message id alone: those lines too.
  const questions = own.flatMap((e) =>
    e.event === "approval_opened" && typeof e.question === "string" ? [e.question] : [],
  );
  const events = questions.length > 0 ? s.events.filter((e) => carries(e, [...ids, ...questions])) : own;
  // Its jobs, by their QStash message ids: their deliveries and the QStash faults on them.
  const jobs = [...new Set(events.flatMap((e) => [e.job, e.messageId].filter((v) => typeof v === "string")))];
  const qstash = s.events.filter((e) => e.event.startsWith("qstash_") && carries(e, jobs as string[]));
  const requests = s.deliveries.flatMap((d) => {
    const message = messageOf(d.word, c);
    return message ? [{ message, at: d.at, status: d.status, ...(d.retry ? { retry: d.retry } : {}) }] : [];
  });
  const platformCalls = Object.fromEntries(
    Object.entries(s.platformCalls).map(([fake, rows]) => [fake, keep(rows.filter((row) => carries(row, ids)))]),
  );
  const faults: Row[] = [];
  const times = [
    ...requests.map((q) => q.at),
    ...Object.values(platformCalls).flatMap((rows) => rows.map((row) => row.at)),
  ].filter((t): t is number => typeof t === "number");
  const [from, to] = [Math.min(...times), Math.max(...times)];
  for (const [boundary, rows] of Object.entries(s.faults))
    for (const row of rows) {
      const ours = carries(row, [...ids, ...(jobs as string[])]);
      const inItsTime =
        (boundary === "redis" || boundary === "model") && typeof row.at === "number" && row.at >= from && row.at <= to;
      if (ours || inItsTime) faults.push({ boundary, ...(ours ? {} : { in_its_time: true }), ...row });
    }
  return {
    id: c.id,
    kind: c.kind,
    counters,
    place: {
      platform: c.place.platform,
      tenant: c.place.tenant,
      channel: redact(c.place.channel, secrets),
      ...(c.place.thread ? { thread: c.place.thread } : {}),
    },
    messages: c.messages.map((m) => ({ message: messageOf(m.word, c), trigger: m.trigger })),
    requests,
    faults: keep(faults),
    platform_calls: platformCalls,
    log_events: keep(events),
    qstash: keep(qstash),
    redis_keys: keep(await s.redisKeys(ids)),
  };
}

/** Where the run's records are read from, once the run settled. */
export interface TraceOrigins {
  slackControl: string;
  discord: string;
  twilio: string;
  telegram: string;
  googleChat: string;
  teams: string;
  redis: Pick<Redis, "scan" | "type" | "ttl">;
  keyPrefix: string;
}

/** The run's records, as ./trace.ts reads them: the fakes' calls now, the Redis keys when a conversation asks. */
export async function readSources(
  o: TraceOrigins,
  deliveries: readonly Delivery[],
  faults: Readonly<Record<string, readonly Row[]>>,
  events: readonly LogEvent[],
): Promise<TraceSources> {
  const read = async (url: string) => {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    return (await res.json()) as Row[];
  };
  const platformCalls = {
    slack: await read(`${o.slackControl}/__api`),
    discord: await read(`${o.discord}/__calls`),
    twilio: await read(`${o.twilio}/__calls`),
    telegram: await read(`${o.telegram}/__calls`),
    "google-chat": await read(`${o.googleChat}/__calls`),
    teams: await read(`${o.teams}/__calls`),
  };
  const redisKeys = async (ids: readonly string[]) => {
    const keys = new Set<string>();
    for (const id of ids) for (const key of await scanKeys(o.redis, `${o.keyPrefix}:*${id}*`)) keys.add(key);
    const rows: Row[] = [];
    for (const key of keys) rows.push({ key, type: await o.redis.type(key), ttl: await o.redis.ttl(key) });
    return rows;
  };
  return { deliveries, faults, platformCalls, events, redisKeys };
}
