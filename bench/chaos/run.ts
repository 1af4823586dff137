/**
 * @module
 * `npm run bench:chaos -- [--seed S] [--conversations N] [--fault-rate R] [--json]`: a fault soak. The real Worker in
 * workerd on the local stack (bench/load/stack.ts) with QStash on its production retry schedule and a virtual
 * clock, a fault proxy in front of the Redis bridge, the platform fakes and the local model; N conversations
 * (./plan.ts, some asking for tools: ./tool-asks.ts) while every boundary fails at random (./faults.ts) and webhooks
 * are delivered again as each platform does (./send.ts); time is driven until nothing is due, then the promises are
 * checked from outside (./checks.ts).
 * Prints each figure, the problems found, and a last JSON line; the seed replays the run exactly (apart from the
 * order concurrent calls happen to take).
 */
import { writeFile } from "node:fs/promises";
import { Redis } from "@upstash/redis";
import { z } from "zod";
import { CommandError, defineCommand, parseCommandLine, runCommand } from "../../dev/cli.ts";
import { freePort } from "../../dev/ports.ts";
import { seededRandom } from "../../dev/faults/seeded-random.ts";
import { readClock } from "../../test/support/qstash-clock.ts";
import { timePasses } from "../../test/support/time-warp.ts";
import { REDIS_REST_TOKEN, startStack } from "../load/stack.ts";
import { TELEGRAM_BOT, TELEGRAM_SECRET } from "../load/telegram-traffic.ts";
import * as traffic from "../load/traffic.ts";
import { QSTASH_DEV, startParleyOn } from "../load/workers.ts";
import {
  checkAnswers,
  checkLines,
  checkPrompts,
  checkRecords,
  collectOutputs,
  leakPatterns,
  withoutCiphertext,
} from "./checks.ts";
import { checkInvited, inInvited, planInvited, prepareInvited } from "./invited.ts";
import { armFaults, faultsInjected, telegramLostSends } from "./faults.ts";
import { sendHostile } from "./hostile.ts";
import { CHAOS_ADMIN_TOKEN, PRIVACY_MODEL_RULES, sendPrivacyCases } from "./hostile-privacy.ts";
import { planConversations, tagOf } from "./plan.ts";
import { newSendStats, sendConversations, sendLateRetries } from "./send.ts";
import { checkToolCalls, startChaosTools, toolModelRules, toolServerCalls } from "./tool-asks.ts";
import { checkConfirmCalls, sendApprovals } from "./approvals.ts";

const KEY_PREFIX = "chaos";
/** Slack's late retries come a minute after the first delivery. */
const LATE_RETRY_AFTER_MS = 60_000;
const STEP_MS = 10 * 60_000;
/**
 * QStash's last retry comes about 33 minutes after the first attempt; a day leaves room for late and flow-controlled
 * ones.
 */
const MAX_VIRTUAL_MS = 24 * 3_600_000;

const command = defineCommand({
  name: "npm run bench:chaos",
  summary:
    "A fault soak: conversations across Slack (channels, threads, DMs, two workspaces), Discord (/ask in guilds and DMs), SMS, Telegram (groups, private chats) and Google Chat (spaces, threads, DMs; signed events from the Google Chat fake) against the real Worker, while every boundary (QStash, Redis, the platforms' APIs, the model, webhook redeliveries) fails at random from a seed; time runs on QStash's production schedule with a virtual clock until everything settled. Then checks from outside that every accepted trigger got exactly one answer (or one apology after the last retry), nothing accepted is missing from its conversation, nothing went to the wrong place or tenant, no DM text reached another prompt, no phone number, token or message text is in a log line or queue payload, no signed hostile input got a 5xx, and the hostile privacy cases held (a forged speaker line stays its author's, repeated forgets are limited, a swapped sealed job is refused, parallel admin guesses get no more than the allowance). One conversation in five asks for a ticket lookup at the local tool server: no idempotency key is called with different arguments, and the confirm-only create_ticket, which nobody approves, is never called.",
  options: {
    seed: {
      type: "string",
      description: "the seed of the traffic and of every fault (default: from the time; printed)",
      valueName: "n",
    },
    conversations: {
      type: "string",
      default: "300",
      description: "how many conversations (default 300)",
      valueName: "n",
    },
    "fault-rate": {
      type: "string",
      default: "0.05",
      description: "the share of calls failing at each boundary (default 0.05)",
      valueName: "r",
    },
    json: { type: "boolean", default: false, description: "print only the last JSON line (and problems on stderr)" },
    "log-file": {
      type: "string",
      description: "write every log line of the run (Worker and stand-ins) to this file, to trace a failing seed",
      valueName: "path",
    },
  },
  notes: ["Exit code 1 when any promise was broken; the JSON line's seed replays the run."],
});

const argsSchema = z.object({
  seed: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31)
    .optional(),
  conversations: z.coerce.number().int().min(1).max(2_000),
  "fault-rate": z.coerce.number().min(0).max(0.5),
  json: z.boolean(),
  "log-file": z.string().optional(),
});

async function main(): Promise<void> {
  const parsed = argsSchema.safeParse(parseCommandLine(command));
  if (!parsed.success)
    throw new CommandError(parsed.error.issues.map((i) => `--${i.path.join(".")} ${i.message}`).join("; "));
  const args = parsed.data;
  const seed = args.seed ?? Date.now() % 1_000_000;
  const rate = args["fault-rate"];
  const out = args.json ? () => {} : (line: string) => process.stdout.write(`${line}\n`);

  // Every JSON line printed in this process is the Worker's or a stand-in's log: kept for the leak check, not shown.
  const logLines: string[] = [];
  const publishes: string[] = [];
  // wrangler prints the Worker's warnings and errors coloured, behind a "✘ [ERROR]" mark: the JSON is inside.
  const quiet = (...line: unknown[]) => {
    const text = line
      .map(String)
      .join(" ")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal's colour codes (ESC [ … m)
      .replace(/\u001b\[[0-9;]*m/g, "");
    const start = text.indexOf('{"event"');
    if (start >= 0) logLines.push(text.slice(start, text.lastIndexOf("}") + 1));
  };
  console.log = quiet;
  console.info = quiet;
  console.warn = quiet;
  console.error = quiet;

  const started = Date.now();
  const modelRules = [...PRIVACY_MODEL_RULES, ...toolModelRules(args.conversations, tagOf)];
  const stack = await startStack({
    modelDelayMs: 0,
    productionSchedule: { mode: "virtual" },
    redisFaults: true,
    modelRules,
    onPublish: (b) => void publishes.push(b.toString("utf8")),
  });
  stack.gate.open();
  const discord = traffic.discordSigner();
  const at = { ...stack, publicBaseUrl: stack.gate.url, port: stack.workerPort };
  // The bench's Slack is one workspace under one bot token, whose two tenants share every channel id: reading a
  // place's history at a conversation's start would read the other tenant's channel, which Slack (unique channel
  // ids, a token that reads its own workspace only) never allows. So nothing is read or kept before a conversation.
  const tools = await startChaosTools(await freePort());
  const parley = await startParleyOn(
    at,
    discord,
    KEY_PREFIX,
    { ADMIN_TOKEN: CHAOS_ADMIN_TOKEN, BACKFILL_MESSAGES: "0", ...tools.settings },
    "log",
  ).catch(async (err: unknown) => {
    await Promise.all([stack.stop(), tools.server.close()]);
    throw err;
  });
  try {
    const redis = new Redis({ url: stack.redisBridgeUrl, token: REDIS_REST_TOKEN, enableAutoPipelining: false });
    const sender = {
      parleyUrl: parley.url,
      publicBaseUrl: stack.gate.url,
      discord,
      discordFake: stack.fakes.discord,
      slackControl: stack.fakes.slack.replace(/\/api$/, ""),
      telegramFake: stack.fakes.telegram,
      googleChatFake: stack.fakes.googleChat,
    };
    const stats = newSendStats();
    const problems: string[] = [];
    const settle = async (ms: number) =>
      timePasses({ qstashUrl: stack.qstashUrl, redis, keyPrefix: `${KEY_PREFIX}:` }, ms);

    await realTimeLimitsOff(sender);
    const hostile = await sendHostile(sender, stats, problems);
    const privacy = await sendPrivacyCases({
      ...sender,
      qstashSigningKey: QSTASH_DEV.QSTASH_CURRENT_SIGNING_KEY,
      modelUrl: stack.modelUrl,
    });
    await settle(STEP_MS);
    const hostileBroken = await privacy.check(problems);

    const faultTargets = {
      qstash: stack.qstashUrl,
      redisProxy: stack.redisFaultControlUrl!,
      slack: stack.fakes.slack.replace(/\/api$/, ""),
      discord: stack.fakes.discord.replace(/\/api\/v10$/, ""),
      twilio: stack.fakes.twilio,
      telegram: stack.fakes.telegram,
      googleChat: stack.fakes.googleChat,
      model: stack.modelUrl.replace(/\/v1$/, ""),
    };
    // What the hostile cases got answered is theirs: the checks read the conversations' places only.
    const platforms = [faultTargets.slack, faultTargets.discord, faultTargets.twilio, faultTargets.telegram];
    for (const url of [...platforms, faultTargets.googleChat]) await fetch(`${url}/__reset`, { method: "POST" });
    // After the reset, which brings the fake's own settings (its tiers on) back.
    await realTimeLimitsOff(sender);
    const random = seededRandom(seed);
    const run = `R${seed.toString(36).toUpperCase()}`;
    const conversations = planConversations(args.conversations, random, run);
    // About one channel in twenty invited the bot to join in, and as many asked a question of nobody (./invited.ts).
    const invited = planInvited(conversations.length, Math.max(1, Math.round(conversations.length / 20)), random, run);
    await prepareInvited(invited, redis, KEY_PREFIX, sender.slackControl);
    await armFaults(faultTargets, rate, seed);
    const sent = await sendConversations(sender, stats, [...conversations, ...invited], rate, random);
    // Every accepted message is recorded before anything expires (time has not moved yet); a rescue's question is
    // not (nobody called the bot there).
    const recorded = [...conversations, ...invited.filter((c) => c.kind === "slack_initiative")];
    const records = await checkRecords(redis, KEY_PREFIX, recorded, sent.accepted, problems);

    await settle(LATE_RETRY_AFTER_MS);
    await sendLateRetries(sender, stats, sent.lateRetries);
    // The questions that ask to run create_ticket are up by now: their askers answer them (or never do).
    const approvals = await sendApprovals(sender, stats, conversations, random);
    let waited = LATE_RETRY_AFTER_MS;
    while ((await readClock(stack.qstashUrl)).nextDueAt !== null && waited < MAX_VIRTUAL_MS) {
      await settle(STEP_MS);
      waited += STEP_MS;
    }
    const unsettled = (await readClock(stack.qstashUrl)).nextDueAt !== null;
    if (unsettled) problems.push(`unsettled: QStash still had messages due after ${MAX_VIRTUAL_MS / 3_600_000} h`);

    const outputs = await collectOutputs(stack.fakes);
    const invitedHere = inInvited(invited);
    const answers = checkAnswers(
      conversations,
      sent.accepted,
      outputs.filter((o) => !invitedHere(o)),
      problems,
      await telegramLostSends(faultTargets),
    );
    // Google Chat's share of the figures above, on its own (its conversations and the posts in its spaces).
    const chatOnly = (p: { platform: string }) => p.platform === "google-chat";
    const chat = checkAnswers(
      conversations.filter((c) => chatOnly(c.place)),
      sent.accepted,
      outputs.filter((o) => chatOnly(o.place)),
      [],
    );
    const joinedIn = checkInvited(invited, sent.accepted, outputs.filter(invitedHere), problems);
    const patterns = leakPatterns([
      "xoxb-bench",
      "bench-discord-token",
      TELEGRAM_BOT.token,
      TELEGRAM_SECRET,
      // The Google Chat fake's access tokens, the service account's key, and RS256 JWTs (events, assertions).
      "ya29.",
      "PRIVATE KEY",
      "eyJhbGciOiJSUzI1NiIs",
    ]);
    const prompts = await checkPrompts(stack.modelUrl, problems);
    const leaks =
      prompts.leaks +
      checkLines("log line", logLines, patterns, problems) +
      checkLines("queue payload", publishes.map(withoutCiphertext), patterns, problems);
    const faults = await faultsInjected(faultTargets);
    const calls = await toolServerCalls(tools.server);
    const toolFigures = {
      ...checkToolCalls(calls, problems),
      approval_questions: approvals.questions,
      approved: approvals.approved.size,
      denied: approvals.denied,
      ...checkConfirmCalls(calls, approvals.approved, problems),
    };

    if (args["log-file"]) await writeFile(args["log-file"], logLines.map((l) => `${l}\n`).join(""));
    const result = {
      conversations: conversations.length,
      triggers: conversations.length,
      accepted: answers.accepted,
      faults_injected: Object.values(faults).reduce((a, b) => a + b, 0),
      answered_once: answers.answered_once,
      apologized: answers.apologized,
      answered_twice: answers.answered_twice,
      twice_as_telegram_allows: answers.twice_as_platform_allows,
      unanswered: answers.unanswered,
      lost_records: records.lost,
      misplaced: answers.misplaced + records.misplaced,
      leaks,
      hostile_cases: hostile.cases + privacy.cases,
      hostile_5xx: hostile.fiveXx,
      hostile_broken: hostileBroken,
      ...joinedIn,
      ...toolFigures,
      google_chat: {
        conversations: conversations.filter((c) => chatOnly(c.place)).length,
        accepted: chat.accepted,
        answered_once: chat.answered_once,
        apologized: chat.apologized,
      },
      seed,
    };
    out(
      `bench:chaos  seed ${seed}, ${conversations.length} conversations, fault rate ${rate}, ${Math.round((Date.now() - started) / 1000)} s`,
    );
    out(
      `  webhook deliveries ${stats.deliveries} (${[...stats.statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}: ${n}`)
        .join(", ")}), late Slack retries ${sent.lateRetries.length}`,
    );
    out(
      `  read ${logLines.length} log lines, ${publishes.length} queue payloads, ${prompts.read} prompts, ${outputs.length} posts`,
    );
    out(
      `  faults injected ${result.faults_injected} (${Object.entries(faults)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")})`,
    );
    for (const [name, value] of Object.entries(result))
      if (name !== "seed" && name !== "faults_injected")
        out(`  ${name.padEnd(16)} ${typeof value === "object" ? JSON.stringify(value) : value}`);
    const shown = problems.slice(0, 30);
    for (const p of shown) process.stderr.write(`  ${p}\n`);
    if (problems.length > shown.length) process.stderr.write(`  … and ${problems.length - shown.length} more\n`);
    const broken =
      result.answered_twice +
      result.unanswered +
      result.lost_records +
      result.misplaced +
      result.leaks +
      result.hostile_5xx +
      result.hostile_broken +
      result.invited_broken +
      result.unapproved_calls +
      result.confirmed_twice +
      result.key_reused +
      (unsettled ? 1 : 0);
    if (broken > 0)
      process.stderr.write(
        `bench:chaos: promises broken; replay with --seed ${seed} --conversations ${conversations.length} --fault-rate ${rate}\n`,
      );
    process.stdout.write(`${JSON.stringify(result)}\n`);
    if (broken > 0) process.exitCode = 1;
  } finally {
    await parley.stop().catch(() => {});
    await Promise.all([stack.stop(), tools.server.close()]);
  }
}

await runCommand(command.name, main);

/**
 * The soak moves time on a virtual clock (QStash's schedule and Redis TTLs, the Worker's call budgets among them),
 * while the fake's per-minute tiers count real time: a virtual hour's calls would meet one real minute's limit, a
 * 429 that no production timing gives. The tiers are off here, and Telegram's flood control too (bench:latency
 * measures refusals at real timings), and Google Chat's 60 writes a minute a space; the injected 429s on
 * chat.postMessage, sendMessage and spaces.messages.create still come.
 */
async function realTimeLimitsOff(fakes: {
  slackControl: string;
  telegramFake: string;
  googleChatFake: string;
}): Promise<void> {
  const slack = await fetch(`${fakes.slackControl}/__config`, {
    method: "POST",
    body: JSON.stringify({ rateLimits: { enabled: false } }),
  });
  if (!slack.ok) throw new Error(`the Slack fake refused its settings: ${slack.status}`);
  const telegram = await fetch(`${fakes.telegramFake}/__config`, {
    method: "POST",
    body: JSON.stringify({ limits: { enabled: false } }),
  });
  if (!telegram.ok) throw new Error(`the Telegram fake refused its settings: ${telegram.status}`);
  const chat = await fetch(`${fakes.googleChatFake}/__config`, {
    method: "POST",
    body: JSON.stringify({ rateLimits: false }),
  });
  if (!chat.ok) throw new Error(`the Google Chat fake refused its settings: ${chat.status}`);
}
