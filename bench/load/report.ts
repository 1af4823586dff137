/**
 * @module
 * The figures of bench/load: one JSON-ready summary, and the lines printed for people (with what each kind of
 * message ran in Redis, per message, so a change in the scripts shows where it went).
 */
import type { ScriptCacheCost } from "./cold-cache.ts";
import type { InboundPhase, JobsPhase, RedisCost } from "./phases.ts";
import { percentile, round } from "./stats.ts";
import type { MessageKind } from "./traffic.ts";

export interface Measured {
  inbound: Record<MessageKind, InboundPhase>;
  jobs: JobsPhase;
  /** Places that needed an answer. */
  expected: ReadonlySet<string>;
  /** Messages the logs gained during the inbound phases. */
  stored: number;
  /** Publishes per place that got any. */
  publishes: number[];
  scriptCache: ScriptCacheCost;
}

const per = (cost: RedisCost, n: number) => round(cost.commands / Math.max(1, n), 2);

export function summarize(m: Measured) {
  const phases = Object.values(m.inbound);
  const messages = phases.reduce((n, p) => n + p.messages, 0);
  const parley = phases.flatMap((p) => p.acks.parley);
  const noop = phases.flatMap((p) => p.acks.noop);
  const failedAcks = parley.filter((a) => a.status < 200 || a.status >= 300).length;
  // Ignored chatter is not recorded, by design.
  const shouldStore =
    m.inbound.new_mention.messages +
    m.inbound.active.messages +
    m.inbound.tg_new_mention.messages +
    m.inbound.tg_active.messages +
    m.inbound.gc_new_mention.messages +
    m.inbound.gc_dm.messages;
  const unanswered = [...m.expected].filter((place) => (m.jobs.replies.get(place) ?? 0) === 0).length;
  const answers = [...m.jobs.replies.values()].reduce((a, b) => a + b, 0);
  const ack = parley.map((a) => a.ms);
  const noopMs = noop.map((a) => a.ms);
  return {
    messages,
    ack_p50_ms: round(percentile(ack, 50)),
    ack_p99_ms: round(percentile(ack, 99)),
    noop_p50_ms: round(percentile(noopMs, 50)),
    noop_p99_ms: round(percentile(noopMs, 99)),
    p99_ratio: round(percentile(ack, 99) / percentile(noopMs, 99)),
    lost: failedAcks + Math.max(0, shouldStore - m.stored) + unanswered,
    not_acknowledged: failedAcks,
    not_stored: Math.max(0, shouldStore - m.stored),
    unanswered,
    duplicates: [...m.jobs.replies.values()].reduce((n, count) => n + Math.max(0, count - 1), 0),
    redis_round_trips_per_message: round(phases.reduce((n, p) => n + p.roundTrips, 0) / messages, 3),
    redis_commands_per_message: round(phases.reduce((n, p) => n + p.commands, 0) / messages, 3),
    commands_new_mention: per(m.inbound.new_mention, m.inbound.new_mention.messages),
    commands_active: per(m.inbound.active, m.inbound.active.messages),
    commands_ignored: per(m.inbound.ignored, m.inbound.ignored.messages),
    commands_telegram_new_mention: per(m.inbound.tg_new_mention, m.inbound.tg_new_mention.messages),
    commands_telegram_active: per(m.inbound.tg_active, m.inbound.tg_active.messages),
    commands_telegram_kept_chatter: per(m.inbound.tg_kept, m.inbound.tg_kept.messages),
    commands_google_chat_mention: per(m.inbound.gc_new_mention, m.inbound.gc_new_mention.messages),
    commands_google_chat_dm: per(m.inbound.gc_dm, m.inbound.gc_dm.messages),
    commands_teams_mention: per(m.inbound.teams_new_mention, m.inbound.teams_new_mention.messages),
    commands_teams_dm: per(m.inbound.teams_dm, m.inbound.teams_dm.messages),
    commands_per_answer_jobs: per(m.jobs, answers),
    job_round_trips_per_answer: round(m.jobs.roundTrips / Math.max(1, answers), 2),
    publishes_per_message: round(m.publishes.reduce((a, b) => a + b, 0) / messages, 3),
    extra_publishes: m.publishes.reduce((n, count) => n + Math.max(0, count - 1), 0),
    answers,
    script_cache_cold_ms: round(m.scriptCache.coldMs),
    script_cache_warm_ms: round(m.scriptCache.warmMs),
    script_cache_cold_round_trips: m.scriptCache.cold.roundTrips,
    script_cache_cold_commands: m.scriptCache.cold.commands,
    script_cache_warm_commands: m.scriptCache.warm.commands,
  };
}

/** `evalsha 1, get 1, set 1` per message, most frequent first. */
/** Commands per message by name, the most first: `evalsha 1, hmget 1`. */
export function breakdown(cost: RedisCost, n: number): string {
  return [...cost.byCommand]
    .sort((a, b) => b[1] - a[1])
    .map(([name, calls]) => `${name} ${round(calls / Math.max(1, n), 2)}`)
    .join(", ");
}

export function printReport(
  print: (line: string) => void,
  r: { rate: number; places: number; "model-delay-ms": number; result: ReturnType<typeof summarize> } & Pick<
    Measured,
    "inbound" | "jobs" | "scriptCache"
  >,
): void {
  const s = r.result;
  print(
    `Parley under load: ${s.messages} signed messages at ${r.rate}/s over ${r.places} places plus quiet channels (Slack, Discord, SMS), Telegram groups, Google Chat spaces and DMs, Teams channels and 1:1 chats, model delay ${r["model-delay-ms"]} ms`,
  );
  print(`  acknowledgement   p50 ${s.ack_p50_ms} ms, p99 ${s.ack_p99_ms} ms`);
  print(
    `  do-nothing Worker p50 ${s.noop_p50_ms} ms, p99 ${s.noop_p99_ms} ms, interleaved request by request → p99 ratio ${s.p99_ratio}× (target ≤ 3×)`,
  );
  print(
    `  replies posted    ${s.answers} for ${r.jobs.replies.size} places that needed one; duplicates ${s.duplicates}`,
  );
  print(
    `  lost              ${s.lost} (${s.not_acknowledged} not acknowledged, ${s.not_stored} not stored, ${s.unanswered} unanswered)`,
  );
  print(
    `  Redis round trips ${s.redis_round_trips_per_message} per inbound message, ${s.job_round_trips_per_answer} per answer's jobs`,
  );
  print(`  Redis commands (INFO commandstats, script internals counted, per message):`);
  const kinds: [string, InboundPhase][] = [
    ["new mention", r.inbound.new_mention],
    ["active conversation", r.inbound.active],
    ["ignored chatter", r.inbound.ignored],
    ["Telegram mention", r.inbound.tg_new_mention],
    ["Telegram active", r.inbound.tg_active],
    ["Telegram kept chatter", r.inbound.tg_kept],
    ["Google Chat mention", r.inbound.gc_new_mention],
    ["Google Chat DM", r.inbound.gc_dm],
    ["Teams mention", r.inbound.teams_new_mention],
    ["Teams 1:1", r.inbound.teams_dm],
  ];
  for (const [label, phase] of kinds)
    print(`    ${label.padEnd(22)} ${per(phase, phase.messages)}  (${breakdown(phase, phase.messages)})`);
  print(`    ${"answer's jobs".padEnd(22)} ${s.commands_per_answer_jobs}  (${breakdown(r.jobs, s.answers)})`);
  print(
    `  QStash            ${s.publishes_per_message} publishes per inbound message (${r.jobs.replies.size} needed one, ${s.extra_publishes} extra)`,
  );
  print(
    `  script cache lost first message ${s.script_cache_cold_ms} ms, ${s.script_cache_cold_round_trips} round trips, ${s.script_cache_cold_commands} commands ` +
      `(the next: ${s.script_cache_warm_ms} ms, ${r.scriptCache.warm.roundTrips} round trip, ${s.script_cache_warm_commands} commands; median of ${r.scriptCache.samples})`,
  );
}
