/**
 * @module
 * `node bench/load/run.ts [--json] [--places N] [--chatter N] [--rate MSG_PER_S] [--model-delay-ms MS]`: signed
 * traffic for Slack, Discord and Twilio across many places at a set rate against the Worker in workerd, on the
 * local stack (loopback only, bounded in count and time). Prints acknowledgement latency next to a do-nothing
 * Worker's, replies, lost records, duplicates, Redis round trips and commands per inbound message, and QStash
 * publishes per message. With --json the last line is one JSON object.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { freePort } from "../../dev/ports.ts";
import { replyCounts } from "./replies.ts";
import { sendAtRate } from "./send.ts";
import { startStack, REDIS_REST_TOKEN } from "./stack.ts";
import { percentile, round } from "./stats.ts";
import * as traffic from "./traffic.ts";
import { startNoop, startParley } from "./workers.ts";

const QSTASH_DEV = {
  QSTASH_TOKEN: "eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=",
  QSTASH_CURRENT_SIGNING_KEY: "sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r",
  QSTASH_NEXT_SIGNING_KEY: "sig_5ZB6DVzB1wjE8S6rZ7eenA8Pdnhs",
};
const KEY_PREFIX = "bench";
const WARMUP_REQUESTS = 20;
/** The reply phase ends when every place has its reply, or after this long. */
const REPLY_DEADLINE_MS = 120_000;

const { values: raw } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    places: { type: "string", default: "90" },
    chatter: { type: "string", default: "5" },
    rate: { type: "string", default: "40" },
    "model-delay-ms": { type: "string", default: "300" },
  },
});
/** Bounded, so that a typo cannot turn the bench into a flood. */
const args = z
  .object({
    json: z.boolean(),
    places: z.coerce.number().int().min(3).max(3_000),
    chatter: z.coerce.number().int().min(0).max(50),
    rate: z.coerce.number().min(1).max(500),
    "model-delay-ms": z.coerce.number().int().min(0).max(10_000),
  })
  .parse(raw);
const { places, rate } = args;

// The in-process stand-ins log one JSON line per event (every delivery); the bench's own lines are what matter.
const print = console.log.bind(console);
console.log = (...line: unknown[]) => void (typeof line[0] === "string" && line[0].startsWith('{"event"') ? undefined : print(...line));

const stack = await startStack(args["model-delay-ms"]);
const discord = traffic.discordSigner();
const publicBaseUrl = stack.gate.url;
const stopWorkers: (() => Promise<void>)[] = [];
try {
  const noop = await startNoop(await freePort());
  stopWorkers.push(noop.stop);
  const parley = await startParley(stack.workerPort, {
    ...QSTASH_DEV,
    UPSTASH_REDIS_REST_URL: stack.redisRestUrl,
    UPSTASH_REDIS_REST_TOKEN: REDIS_REST_TOKEN,
    QSTASH_URL: stack.qstashUrl,
    PUBLIC_BASE_URL: publicBaseUrl,
    OPENAI_API_KEY: "bench-key",
    OPENAI_BASE_URL: stack.modelUrl,
    TOKEN_ENCRYPTION_KEY: "M+e7RUJyulaG3rY9rqXBRhir6C14DMhIkwLQGzqqdbE=",
    SLACK_SIGNING_SECRET: traffic.SLACK_SIGNING_SECRET,
    SLACK_BOT_TOKEN: "xoxb-bench",
    SLACK_API_BASE_URL: stack.fakes.slack,
    DISCORD_APPLICATION_ID: traffic.DISCORD_APPLICATION_ID,
    DISCORD_PUBLIC_KEY: discord.publicKeyHex,
    DISCORD_BOT_TOKEN: "bench-discord-token",
    DISCORD_API_BASE_URL: stack.fakes.discord,
    TWILIO_ACCOUNT_SID: traffic.TWILIO_ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: traffic.TWILIO_AUTH_TOKEN,
    TWILIO_PHONE_NUMBER: traffic.TWILIO_NUMBER,
    TWILIO_API_BASE_URL: stack.fakes.twilio,
    REDIS_KEY_PREFIX: KEY_PREFIX,
    // Memory jobs would add model calls after each answer; this bench measures the answer path.
    MEMORY_ENABLED: "false",
    SUMMARY_ENABLED: "false",
  });
  stopWorkers.push(parley.stop);

  const plan = (run: string) => traffic.planTraffic({ places, chatterPerSlackChannel: args.chatter, run, publicBaseUrl, discord });
  // Warm both Workers (first-request compilation, Redis scripts loaded) with places of their own, then measure.
  const warmup = plan("W").filter((m) => m.needsAnswer).slice(0, WARMUP_REQUESTS);
  await sendAtRate(noop.url, warmup, rate);
  await sendAtRate(parley.url, warmup, rate);
  const noopAcks = await sendAtRate(noop.url, plan("N"), rate);

  const messages = plan(Date.now().toString(36).toUpperCase());
  // Each place's first message (the one that starts its conversation) is acknowledged before the chatter that
  // follows it: chatter that overtook its mention would, rightly, not be recorded.
  const firsts = messages.filter((m, i) => messages.findIndex((o) => o.place === m.place) === i);
  const rest = messages.filter((m) => !firsts.includes(m));
  const bridgeBefore = stack.bridgeRequests();
  const commandsBefore = await stack.redisCommands();
  const publishesBefore = new Map(stack.publishes);
  const acks = [...(await sendAtRate(parley.url, firsts, rate)), ...(await sendAtRate(parley.url, rest, rate))];
  const bridgeRequests = stack.bridgeRequests() - bridgeBefore;
  const commands = (await stack.redisCommands()) - commandsBefore;
  const publishCounts = [...stack.publishes].map(([place, n]) => n - (publishesBefore.get(place) ?? 0)).filter((n) => n > 0);
  const stored = await stack.storedMessages(`${KEY_PREFIX}:conv:*:log`) - warmup.length;

  stack.gate.open();
  const expected = new Set(messages.filter((m) => m.needsAnswer).map((m) => m.place));
  const allReplies = await replyCounts(stack.fakes, expected, REPLY_DEADLINE_MS);
  const replies = new Map([...allReplies].filter(([place]) => expected.has(place)));

  const failedAcks = acks.filter((a) => a.status < 200 || a.status >= 300).length;
  const unanswered = [...expected].filter((place) => (replies.get(place) ?? 0) === 0).length;
  const duplicates = [...replies.values()].reduce((n, count) => n + Math.max(0, count - 1), 0);
  const publishes = publishCounts.reduce((a, b) => a + b, 0);
  const extraPublishes = publishCounts.reduce((n, count) => n + Math.max(0, count - 1), 0);
  const ackMs = acks.map((a) => a.ms);
  const noopMs = noopAcks.map((a) => a.ms);
  const result = {
    messages: messages.length,
    ack_p50_ms: round(percentile(ackMs, 50)),
    ack_p99_ms: round(percentile(ackMs, 99)),
    noop_p99_ms: round(percentile(noopMs, 99)),
    lost: failedAcks + Math.max(0, messages.length - stored) + unanswered,
    duplicates,
    redis_round_trips_per_message: round(bridgeRequests / messages.length, 3),
    redis_commands_per_message: round(commands / messages.length, 3),
    publishes_per_message: round(publishes / messages.length, 3),
  };

  print(`Parley under load: ${messages.length} signed messages at ${rate}/s over ${places} places (Slack, Discord, SMS), model delay ${args["model-delay-ms"]} ms`);
  print(`  acknowledgement   p50 ${result.ack_p50_ms} ms, p99 ${result.ack_p99_ms} ms, max ${round(Math.max(...ackMs))} ms`);
  print(`  do-nothing Worker p50 ${round(percentile(noopMs, 50))} ms, p99 ${result.noop_p99_ms} ms → p99 ratio ${round(result.ack_p99_ms / result.noop_p99_ms)}× (target ≤ 3×)`);
  print(`  replies posted    ${[...replies.values()].reduce((a, b) => a + b, 0)} for ${expected.size} places that needed one; duplicates ${duplicates}`);
  print(`  lost              ${result.lost} (${failedAcks} not acknowledged, ${Math.max(0, messages.length - stored)} not stored, ${unanswered} unanswered)`);
  print(`  Redis             ${result.redis_round_trips_per_message} round trips and ${result.redis_commands_per_message} commands per inbound message`);
  print(`  QStash            ${publishes} publishes for ${messages.length} messages (${result.publishes_per_message} per message; ${expected.size} needed one, ${extraPublishes} extra)`);
  if (args.json) print(JSON.stringify(result));
} finally {
  for (const stop of stopWorkers.reverse()) await stop().catch(() => {});
  await stack.stop();
}
