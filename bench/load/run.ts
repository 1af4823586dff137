/**
 * @module
 * `node bench/load/run.ts [--json] [--places N] [--chatter N] [--quiet N] [--telegram N] [--telegram-quiet N]
 * [--google-chat N] [--teams N] [--rate MSG_PER_S] [--model-delay-ms MS] [--tool-round]
 * [--scenario backfill [--earlier N] | clicks]`:
 * signed traffic for Slack, Discord, Twilio, Telegram, Google Chat and Teams across many places at a set rate against
 * the Worker in workerd, on the local stack (loopback only, bounded in count and time), each request interleaved with
 * the same request to a do-nothing Worker. Prints acknowledgement latency next to the do-nothing Worker's, replies,
 * lost records, duplicates, Redis round trips, Redis commands (script internals counted) for each kind of inbound
 * message and per answer's jobs, QStash publishes, and the first message after the script cache was lost. With
 * --tool-round every answer first looks a ticket up at the local tool server (one tool round), and the tool calls
 * made are counted. With --json the last line is one JSON object. `--scenario backfill` measures reading the place
 * when a conversation starts instead (./backfill.ts); `--scenario clicks` what a press on an approval's button costs
 * (./clicks.ts).
 */
import { z } from "zod";
import { defineCommand, parseBoundedOptions } from "../../dev/cli.ts";
import { freePort } from "../../dev/ports.ts";
import { backfillScenario, printBackfill } from "./backfill.ts";
import { clicksScenario, printClicks } from "./clicks.ts";
import { coldScriptCache } from "./cold-cache.ts";
import { inboundPhase, jobsPhase, jobsSettled } from "./phases.ts";
import { replyCounts } from "./replies.ts";
import { printReport, summarize } from "./report.ts";
import { sendInterleaved } from "./send.ts";
import { startStack } from "./stack.ts";
import * as traffic from "./traffic.ts";
import { makeTelegramChats } from "./telegram-traffic.ts";
import { startNoop, startParley } from "./workers.ts";

const KEY_PREFIX = "bench";
const WARMUP_REQUESTS = 20;
/** Pairs of new mentions for the script cache probe. */
const SCRIPT_CACHE_SAMPLES = 10;
/** The reply phase ends when every place has its reply and the jobs went quiet, or after this long. */
const REPLY_DEADLINE_MS = 120_000;

const command = defineCommand({
  name: "npm run bench:load",
  summary:
    "Sends signed Slack, Discord, Twilio, Telegram, Google Chat and Teams traffic across many places at a set rate to the Worker in workerd on the " +
    "local stack (loopback only, bounded), each request interleaved with the same request to a do-nothing Worker, " +
    "and prints acknowledgement latency, replies, lost records, duplicates, Redis round trips and commands, and QStash publishes.",
  options: {
    json: { type: "boolean", default: false, description: "end with one JSON line of the figures" },
    places: {
      type: "string",
      default: "90",
      valueName: "n",
      description: "places (channels and phones) in the traffic, 3-3000 (90)",
    },
    chatter: {
      type: "string",
      default: "5",
      valueName: "n",
      description: "messages between people after each Slack channel's mention, 1-50 (5)",
    },
    quiet: {
      type: "string",
      default: "30",
      valueName: "n",
      description: "Slack channels where people only talk among themselves, 1-1000 (30)",
    },
    telegram: {
      type: "string",
      default: "30",
      valueName: "n",
      description: "Telegram groups where the bot is mentioned, then chatter, 0-1000 (30)",
    },
    "telegram-quiet": {
      type: "string",
      default: "30",
      valueName: "n",
      description: "Telegram groups where people only talk (kept, never answered), 0-1000 (30)",
    },
    "google-chat": {
      type: "string",
      default: "30",
      valueName: "n",
      description: "Google Chat places: spaces where the app is mentioned and DMs, alternating, 0-1000 (30)",
    },
    teams: {
      type: "string",
      default: "30",
      valueName: "n",
      description: "Teams places: channels where the bot is mentioned and 1:1 chats, alternating, 0-1000 (30)",
    },
    rate: { type: "string", default: "40", valueName: "msg/s", description: "messages per second, 1-500 (40)" },
    "model-delay-ms": {
      type: "string",
      default: "300",
      valueName: "ms",
      description: "the local model's delay per answer, 0-10000 (300)",
    },
    "tool-round": {
      type: "boolean",
      default: false,
      description: "every answer takes one tool round (a lookup at the local tool server) first",
    },
    scenario: {
      type: "string",
      default: "traffic",
      valueName: "name",
      description:
        "traffic (the mix above), backfill (reading the place at a conversation's start) or clicks (approval buttons)",
    },
    earlier: {
      type: "string",
      default: "10",
      valueName: "n",
      description: "backfill: messages in each Slack channel's history before its mention, 0-100 (10)",
    },
  },
});
/** Bounded, so that a typo cannot turn the bench into a flood. */
const args = parseBoundedOptions(
  command,
  z.object({
    json: z.boolean(),
    places: z.coerce.number().int().min(3).max(3_000),
    chatter: z.coerce.number().int().min(1).max(50),
    quiet: z.coerce.number().int().min(1).max(1_000),
    telegram: z.coerce.number().int().min(0).max(1_000),
    "telegram-quiet": z.coerce.number().int().min(0).max(1_000),
    "google-chat": z.coerce.number().int().min(0).max(1_000),
    teams: z.coerce.number().int().min(0).max(1_000),
    rate: z.coerce.number().min(1).max(500),
    "model-delay-ms": z.coerce.number().int().min(0).max(10_000),
    "tool-round": z.boolean(),
    scenario: z.enum(["traffic", "backfill", "clicks"]),
    earlier: z.coerce.number().int().min(0).max(100),
  }),
);

// The in-process stand-ins log one JSON line per event (every delivery); the bench's own lines are what matter.
const print = console.log.bind(console);
console.log = (...line: unknown[]) =>
  void (typeof line[0] === "string" && line[0].startsWith('{"event"') ? undefined : print(...line));

const stack = await startStack({ modelDelayMs: args["model-delay-ms"], toolRound: args["tool-round"] });
const discord = traffic.discordSigner();
const stopWorkers: (() => Promise<void>)[] = [];
try {
  if (args.scenario === "backfill") {
    const rows = await backfillScenario(stack, discord, {
      places: args.places,
      telegram: args.telegram,
      earlier: args.earlier,
      rate: args.rate,
    });
    printBackfill(print, rows, {
      places: args.places,
      telegram: args.telegram,
      earlier: args.earlier,
      rate: args.rate,
    });
    if (args.json) print(JSON.stringify({ backfill: rows }));
  } else if (args.scenario === "clicks") {
    const clicks = await clicksScenario(stack, discord, { places: args.places, rate: args.rate });
    printClicks(print, clicks, { places: args.places, rate: args.rate });
    if (args.json) print(JSON.stringify({ clicks }));
  } else {
    const noop = await startNoop(await freePort());
    stopWorkers.push(noop.stop);
    const parley = await startParley(stack, discord, KEY_PREFIX);
    stopWorkers.push(parley.stop);
    const urls = { parley: parley.url, noop: noop.url };
    const plan = (run: string) =>
      traffic.planTraffic({
        places: args.places,
        chatterPerSlackChannel: args.chatter,
        quietSlackChannels: args.quiet,
        run,
        publicBaseUrl: stack.gate.url,
        discord,
        discordFakeUrl: stack.fakes.discord,
        telegram: { groups: args.telegram, quiet: args["telegram-quiet"] },
        googleChat: args["google-chat"],
        teams: args.teams,
      });
    // Google Chat's and Teams' deliveries are made in their fakes before they are sent.
    const prepare = async (ms: traffic.PlannedMessage[]) => {
      for (const m of ms) await m.prepare?.(stack.fakes);
    };

    // Warm both Workers with places of their own, jobs included, so that every script is cached before measuring.
    stack.gate.open();
    const warmup = plan("W")
      .filter((m) => m.needsAnswer)
      .slice(0, WARMUP_REQUESTS);
    await makeTelegramChats(stack.fakes.telegram, warmup);
    await prepare(warmup);
    await sendInterleaved(urls, warmup, args.rate);
    await replyCounts(stack.fakes, new Set(warmup.map((m) => m.place)), REPLY_DEADLINE_MS);
    await jobsSettled(stack.gate, Date.now() + REPLY_DEADLINE_MS);
    stack.gate.hold();

    // Each place's first message (the one that starts its conversation) is acknowledged before the chatter that
    // follows it: chatter that overtook its mention would, rightly, not be recorded.
    const messages = plan(Date.now().toString(36).toUpperCase());
    await makeTelegramChats(stack.fakes.telegram, messages);
    await prepare(messages);
    const ofKind = (kind: traffic.MessageKind) => messages.filter((m) => m.kind === kind);
    const logs = `${KEY_PREFIX}:conv:*:log`;
    const storedBefore = await stack.storedMessages(logs);
    const publishesBefore = await stack.publishes();
    const inbound = {
      new_mention: await inboundPhase(stack, urls, ofKind("new_mention"), args.rate),
      active: await inboundPhase(stack, urls, ofKind("active"), args.rate),
      ignored: await inboundPhase(stack, urls, ofKind("ignored"), args.rate),
      tg_new_mention: await inboundPhase(stack, urls, ofKind("tg_new_mention"), args.rate),
      tg_active: await inboundPhase(stack, urls, ofKind("tg_active"), args.rate),
      tg_kept: await inboundPhase(stack, urls, ofKind("tg_kept"), args.rate),
      gc_new_mention: await inboundPhase(stack, urls, ofKind("gc_new_mention"), args.rate),
      gc_dm: await inboundPhase(stack, urls, ofKind("gc_dm"), args.rate),
      teams_new_mention: await inboundPhase(stack, urls, ofKind("teams_new_mention"), args.rate),
      teams_dm: await inboundPhase(stack, urls, ofKind("teams_dm"), args.rate),
    };
    const stored = (await stack.storedMessages(logs)) - storedBefore;
    const publishes = [...(await stack.publishes())]
      .map(([place, n]) => n - (publishesBefore.get(place) ?? 0))
      .filter((n) => n > 0);

    const expected = new Set(messages.filter((m) => m.needsAnswer).map((m) => m.place));
    const jobs = await jobsPhase(stack, expected, REPLY_DEADLINE_MS);

    stack.gate.hold();
    const probeMentions = plan("P")
      .filter((m) => m.kind === "new_mention" && m.platform === "slack")
      .slice(0, 2 * SCRIPT_CACHE_SAMPLES);
    const scriptCache = await coldScriptCache(stack, parley.url, probeMentions);

    const toolCalls = stack.toolServerUrl
      ? (((await (await fetch(`${stack.toolServerUrl}/__calls`)).json()) as { byTool: Record<string, number> }).byTool
          .lookup_ticket ?? 0)
      : 0;
    const result = {
      ...summarize({ inbound, jobs, expected, stored, publishes, scriptCache }),
      ...(stack.toolServerUrl ? { tool_calls: toolCalls } : {}),
    };
    printReport(print, { ...args, result, inbound, jobs, scriptCache });
    if (stack.toolServerUrl) print(`tool calls at the tool server (warm-up and probes included): ${toolCalls}`);
    if (args.json) print(JSON.stringify(result));
  }
} finally {
  for (const stop of stopWorkers.reverse()) await stop().catch(() => {});
  await stack.stop();
}
