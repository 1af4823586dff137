/**
 * @module
 * `node bench/latency/run.ts [--json] [--answers N] [--concurrency N] [--wave-every S] [--tokens N] [--tps N]
 * [--first-ms MS]`: how soon a person sees that the bot works, and its answer, on the local stack: for Slack
 * (thread: native streams; channel: a message edited as it grows), Discord (/ask; a channel message arriving
 * over the Gateway: typing, then a message edited as it grows) and Telegram (a group: typing, then a reply edited
 * as it grows; a private chat: typing, drafts, then the message), Google Chat (a mention in a space, a DM: a post
 * edited as it grows, no sign before it), Teams (a mention in a channel: typing, then a reply edited as it grows; a
 * 1:1 chat: typing, then Teams' own stream) and a Slack thread question answered after one
 * tool round (a lookup the local tool server answers after 200 ms), `--answers` answers each
 * with STREAMING on and as many with it off, sent interleaved to two Workers in waves of `--concurrency`
 * conversations per mode, a wave every `--wave-every` seconds at most, each Slack kind and mode in a workspace of
 * its own (Slack's tiers count per workspace), the local model at the pace given. Prints a table per kind, the
 * complete-time ratio on/off, and
 * with --json as its last line `{"streaming": {kind: F}, "streaming_off": {kind: F}}`, F = {answers, streamed,
 * first_sign_p95_ms, first_text_p95_ms, complete_p95_ms, model_first_token_ms, first_text_after_token_p95_ms,
 * api_calls_per_answer, rate_limited}, the tool kind's with tool_round_extra_p95_ms: from the model's first pass
 * to its second, less the first pass's first-token delay and the tool's 200 ms. `--kinds` runs only some. Times run
 * from the webhook's acceptance (for the Gateway, from the fake
 * Gateway's dispatch of the MESSAGE_CREATE); the model's first token is its request's arrival plus the first-token
 * delay. Each Worker is a bot of its own on Discord, with its own Gateway connection.
 */
import { z } from "zod";
import { defineCommand, parseBoundedOptions } from "../../dev/cli.ts";
import { discordSigner } from "../load/traffic.ts";
import { percentile } from "../load/stats.ts";
import { KINDS, MODES, question, SLACK_TEAMS, TOOL_TEAMS, type Kind, type Mode, type Question } from "./answers.ts";
import { modelAskedTimes, seen, type Seen } from "./measure.ts";
import { startLatencyStack, TOOL_DELAY_MS } from "./stack.ts";
import { googleChatRefusals } from "./google-chat.ts";
import { teamsRefusals } from "./teams.ts";
import { telegramRefusals } from "./telegram.ts";

/** A wave that is not complete by then is reported as such and the bench stops. */
const WAVE_DEADLINE_MS = 120_000;
const POLL_MS = 100;

const command = defineCommand({
  name: "npm run bench:latency",
  summary:
    "How soon a person sees that the bot works, and its answer, on the local stack: Slack threads (native streams), " +
    "Slack channels (a message edited as it grows), Discord /ask, Discord channel messages over the Gateway, Telegram groups (edits) and private " +
    "chats (drafts), Google Chat spaces and DMs (a post edited as it grows), Teams channels (edits) and 1:1 chats " +
    "(Teams' own stream), each with STREAMING on and off, interleaved on " +
    "two Workers, in waves of conversations at once, each Slack kind and mode in a workspace of its own; prints p95 " +
    "first sign, first text, complete time, API calls and refusals.",
  options: {
    json: { type: "boolean", default: false, description: "end with one JSON line of the figures" },
    answers: { type: "string", default: "50", valueName: "n", description: "answers per kind and mode, 1-500 (50)" },
    concurrency: {
      type: "string",
      default: "20",
      valueName: "n",
      description: "conversations at once per mode, 1-50 (20)",
    },
    // A busy workspace: twenty people asking at once, and again a minute later (Slack's tiers are per minute).
    "wave-every": {
      type: "string",
      default: "60",
      valueName: "s",
      description: "seconds from one wave's start to the next's, 0-600 (60)",
    },
    // Short answers by default, so that a run takes about two minutes; the figures use --tokens 400.
    tokens: {
      type: "string",
      default: "120",
      valueName: "n",
      description: "tokens per answer of the local model, 10-2000 (120)",
    },
    tps: { type: "string", default: "40", valueName: "n", description: "the local model's tokens per second (40)" },
    "first-ms": {
      type: "string",
      default: "800",
      valueName: "ms",
      description: "the local model's delay to its first token, 0-10000 (800)",
    },
    kinds: {
      type: "string",
      default: KINDS.join(","),
      valueName: "list",
      description: `the kinds to measure, comma-separated (all: ${KINDS.join(",")})`,
    },
  },
});
/** Bounded, so that a typo cannot turn the bench into a flood. */
const args = parseBoundedOptions(
  command,
  z.object({
    json: z.boolean(),
    answers: z.coerce.number().int().min(1).max(500),
    concurrency: z.coerce.number().int().min(1).max(50),
    "wave-every": z.coerce.number().int().min(0).max(600),
    tokens: z.coerce.number().int().min(10).max(2_000),
    tps: z.coerce.number().min(1).max(1_000),
    "first-ms": z.coerce.number().int().min(0).max(10_000),
    kinds: z
      .string()
      .transform((v) => v.split(",").map((k) => k.trim()))
      .pipe(z.array(z.enum(KINDS)).min(1)),
  }),
);

// The in-process stand-ins log one JSON line per event; the bench's own lines are what matter.
const print = console.log.bind(console);
console.log = (...line: unknown[]) =>
  void (typeof line[0] === "string" && line[0].startsWith('{"event"') ? undefined : print(...line));

interface Measured extends Seen {
  q: Question;
  acceptedAt: number;
  modelFirstTokenAt: number;
  /** When the model's pass after a tool round was asked for (the tool kind), ms. */
  modelFollowupAt?: number;
}

const discord = discordSigner();
const pace = { tokens: args.tokens, tps: args.tps, firstMs: args["first-ms"] };
const stack = await startLatencyStack(pace, discord, SLACK_TEAMS, TOOL_TEAMS);
const run = Date.now().toString(36).toUpperCase();
const results: Record<Mode, Partial<Record<Kind, object>>> = { streaming: {}, streaming_off: {} };
let lastWaveStart = 0;
try {
  const discordRefusals = async () =>
    ((await (await fetch(`${stack.fakes.discord}/__stats`)).json()) as { ratelimited: { total: number } }).ratelimited
      .total;
  for (const kind of args.kinds) {
    const measured: Measured[] = [];
    const refusals = kind.startsWith("telegram")
      ? () => telegramRefusals(stack.fakes.telegram)
      : kind.startsWith("gchat")
        ? () => googleChatRefusals(stack.fakes.googleChat)
        : kind.startsWith("teams")
          ? () => teamsRefusals(stack.fakes.teams)
          : discordRefusals;
    const refusedBefore = await refusals();
    for (let sent = 0; sent < args.answers; sent += args.concurrency) {
      const waveStart = Date.now();
      if (sent > 0)
        await new Promise((r) => setTimeout(r, Math.max(0, lastWaveStart + args["wave-every"] * 1000 - waveStart)));
      lastWaveStart = Date.now();
      const wave = Math.min(args.concurrency, args.answers - sent);
      // On and off alternate, so that both see the same machine load at the same time.
      const questions = Array.from({ length: wave * 2 }, (_, i) =>
        question(kind, MODES[i % 2]!, run, discord, stack.fakes.discord),
      );
      const accepted = await Promise.all(questions.map(ask));
      measured.push(...(await waitForAnswers(questions, accepted)));
    }
    const counted = ["discord", "telegram", "gchat", "teams"].some((p) => kind.startsWith(p));
    const refused = counted ? (await refusals()) - refusedBefore : 0;
    for (const mode of MODES)
      results[mode][kind] = figures(
        kind,
        measured.filter((m) => m.q.mode === mode),
        refused,
      );
  }
} finally {
  await stack.stop();
}
report();

function ask(q: Question): Promise<number> {
  const side = q.mode === "streaming" ? "streaming" : "streamingOff";
  return q.ask({
    workerUrl: stack.workers[side],
    dispatch: stack.gateways[side],
    telegramFake: stack.fakes.telegram,
    googleChatFake: stack.fakes.googleChat,
    teamsFake: stack.fakes.teams,
  });
}

async function waitForAnswers(questions: Question[], accepted: number[]): Promise<Measured[]> {
  const done = new Map<number, Measured>();
  const deadline = Date.now() + WAVE_DEADLINE_MS;
  while (done.size < questions.length) {
    if (Date.now() > deadline)
      throw new Error(`${questions.length - done.size} answers of a ${questions[0]!.kind} wave never completed`);
    await new Promise((r) => setTimeout(r, POLL_MS));
    for (const [i, q] of questions.entries()) {
      if (done.has(i)) continue;
      const s = await seen(q, accepted[i]!, stack.fakes, args.tokens);
      if (!s) continue;
      const [firstPass, followup] = await modelAskedTimes(q, stack.modelControl);
      done.set(i, {
        ...s,
        q,
        acceptedAt: accepted[i]!,
        modelFirstTokenAt: firstPass! + args["first-ms"],
        ...(followup ? { modelFollowupAt: followup } : {}),
      });
    }
  }
  return [...done.values()];
}

function figures(kind: Kind, measured: Measured[], discordRefused: number) {
  const p95 = (f: (m: Measured) => number) => Math.round(percentile(measured.map(f), 95));
  return {
    answers: measured.length,
    // Answers whose text showed before it was complete: within Slack's tiers, not every answer can stream.
    streamed: measured.filter((m) => m.firstTextAt < m.completeAt).length,
    first_sign_p95_ms: p95((m) => m.signAt - m.acceptedAt),
    first_text_p95_ms: p95((m) => m.firstTextAt - m.acceptedAt),
    complete_p95_ms: p95((m) => m.completeAt - m.acceptedAt),
    model_first_token_ms: p95((m) => m.modelFirstTokenAt - m.acceptedAt),
    first_text_after_token_p95_ms: p95((m) => m.firstTextAt - m.modelFirstTokenAt),
    api_calls_per_answer: Number(
      (measured.reduce((sum, m) => sum + m.calls, 0) / Math.max(1, measured.length)).toFixed(1),
    ),
    // Slack's refusals are counted per answer's channel; Discord's for the whole phase (both modes).
    rate_limited: measured.reduce((sum, m) => sum + m.rateLimited, 0) + discordRefused,
    // What Parley's side of a tool round takes: the first pass's end to the second pass's request, less the tool's
    // time.
    ...(kind === "slack_tool"
      ? { tool_round_extra_p95_ms: p95((m) => (m.modelFollowupAt ?? NaN) - m.modelFirstTokenAt - TOOL_DELAY_MS) }
      : {}),
  };
}

function report(): void {
  print(
    `bench:latency: ${args.answers} answers per kind and mode, ${args.concurrency} conversations at once per mode every ${args["wave-every"]} s, model ${pace.tokens} tokens at ${pace.tps}/s after ${pace.firstMs} ms`,
  );
  const columns = [
    "answers",
    "streamed",
    "first_sign_p95_ms",
    "first_text_p95_ms",
    "complete_p95_ms",
    "model_first_token_ms",
    "first_text_after_token_p95_ms",
    "api_calls_per_answer",
    "rate_limited",
  ] as const;
  for (const kind of args.kinds) {
    print(`\n${kind}`);
    print(["mode".padEnd(14), ...columns.map((c) => c.padStart(c.length))].join(" "));
    for (const mode of MODES) {
      const f = results[mode][kind] as Record<string, number>;
      print([mode.padEnd(14), ...columns.map((c) => String(f[c]).padStart(c.length))].join(" "));
    }
    const on = (results.streaming[kind] as { complete_p95_ms: number }).complete_p95_ms;
    const off = (results.streaming_off[kind] as { complete_p95_ms: number }).complete_p95_ms;
    print(`complete p95 streaming on / off: ${(on / off).toFixed(2)}`);
    for (const mode of MODES) {
      const extra = (results[mode][kind] as { tool_round_extra_p95_ms?: number }).tool_round_extra_p95_ms;
      if (extra !== undefined)
        print(
          `${mode}: a tool round adds ${extra} ms p95 beyond the tool's ${TOOL_DELAY_MS} ms and the model's first token`,
        );
    }
  }
  if (args.json) print(JSON.stringify(results));
}
