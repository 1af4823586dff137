/**
 * @module
 * bench/load's `clicks` scenario (`npm run bench:load -- --scenario clicks`): what a press on an approval's button
 * costs (docs/tools.md, "Actions that need approval"), on each platform that shows buttons (./click-places.ts):
 * `places` Slack channels, Discord guild channels and Telegram groups each ask for the confirm-only create_ticket;
 * once every question carries its Approve and Cancel buttons, the jobs are held and, platform by platform, as many
 * mentions that start a conversation go to its webhook (each publishes one job, as a deciding press publishes the
 * continuation), then the askers press Approve (Slack's signed block_actions to /slack/interactions, Discord's
 * signed type-3 interaction to /discord/interactions, Telegram's callback_query to /telegram/webhook), then press it
 * again (a double click: already decided): three phases per platform in one run, each interleaved with the
 * do-nothing Worker. Printed per platform: the Redis commands per press (script internals counted), each phase's
 * acknowledgement p50/p99 and the presses' p99 over its mentions' (target ≤ 1.2×); then the jobs run and the tool
 * server counts create_ticket by idempotency key (one per question, never two).
 */
import { freePort } from "../../dev/ports.ts";
import { startToolServer, type ToolServerCalls } from "../../dev/tools/server.ts";
import { devToolSettings } from "../../dev/tools/settings.ts";
import { clickPlatforms, type ClickPlatform, type ClickPlatformName } from "./click-places.ts";
import { type InboundPhase, inboundPhase, jobsPhase, jobsSettled } from "./phases.ts";
import type { Stack } from "./stack.ts";
import { breakdown } from "./report.ts";
import { percentile, round } from "./stats.ts";
import { pingInteraction } from "../../test/support/discord.ts";
import * as traffic from "./traffic.ts";
import { startNoop, startParleyOn } from "./workers.ts";

const REPLY_DEADLINE_MS = 120_000;

interface PlatformClickFigures {
  questions: number;
  /** Per press, by command: `evalsha 1, hmget 1, …`. */
  press_commands: string;
  commands_per_press: number;
  commands_per_repeat_press: number;
  press_p50_ms: number;
  press_p99_ms: number;
  repeat_p99_ms: number;
  /** A mention that starts a conversation on the same platform, in the same run. */
  mention_p50_ms: number;
  mention_p99_ms: number;
  /** The presses' p99 over the mentions'. */
  press_mention_p99_ratio: number;
  /** The do-nothing Worker's p99 over the press and mention phases: how loaded the machine was. */
  noop_p99_ms: number;
  press_statuses_not_200: number;
  /** create_ticket calls at the tool server, by idempotency key: one per question. */
  tool_runs: number;
  /** Keys called more than once. */
  tool_repeats: number;
}

export type ClickFigures = Record<ClickPlatformName, PlatformClickFigures>;

const acksOf = (phase: InboundPhase) => phase.acks.parley.map((a) => a.ms);

interface Measured {
  platform: ClickPlatform;
  questions: number;
  presses: number;
  mentions: InboundPhase;
  pressed: InboundPhase;
  repeated: InboundPhase;
}

function figures(m: Measured, calls: ToolServerCalls): PlatformClickFigures {
  const { pressed, repeated, mentions } = m;
  const created = Object.entries(calls.createTitles).filter(([, title]) => title.includes(m.platform.titleMark));
  const pressP99 = percentile(acksOf(pressed), 99);
  const mentionP99 = percentile(acksOf(mentions), 99);
  const noop = [...pressed.acks.noop, ...mentions.acks.noop].map((a) => a.ms);
  return {
    questions: m.questions,
    press_commands: breakdown(pressed, m.presses),
    commands_per_press: round(pressed.commands / Math.max(1, m.presses), 1),
    commands_per_repeat_press: round(repeated.commands / Math.max(1, m.presses), 1),
    press_p50_ms: round(percentile(acksOf(pressed), 50), 1),
    press_p99_ms: round(pressP99, 1),
    repeat_p99_ms: round(percentile(acksOf(repeated), 99), 1),
    mention_p50_ms: round(percentile(acksOf(mentions), 50), 1),
    mention_p99_ms: round(mentionP99, 1),
    press_mention_p99_ratio: round(pressP99 / Math.max(mentionP99, 0.001)),
    noop_p99_ms: round(percentile(noop, 99), 1),
    press_statuses_not_200: [...pressed.acks.parley, ...repeated.acks.parley].filter((a) => a.status !== 200).length,
    tool_runs: created.length,
    tool_repeats: created.filter(([key]) => (calls.byKey[key] ?? 0) > 1).length,
  };
}

export async function clicksScenario(
  stack: Stack,
  discord: traffic.DiscordSigner,
  opts: { places: number; rate: number },
): Promise<ClickFigures> {
  const tools = await startToolServer({ port: await freePort() });
  const noop = await startNoop(await freePort());
  const parley = await startParleyOn(
    { ...stack, publicBaseUrl: stack.gate.url, port: stack.workerPort },
    discord,
    "clicks",
    { ...devToolSettings(tools.url), TOOLS: "create_ticket" },
  );
  try {
    const urls = { parley: parley.url, noop: noop.url };
    const platforms = clickPlatforms(stack, discord, Date.now().toString(36).toUpperCase(), opts.places);
    for (const p of platforms) await p.prepare();
    stack.gate.open();
    // Discord voids an interaction answered after 3 s: a first one, on a Worker not yet warm, can take longer.
    await fetch(traffic.discordRequest(parley.url, discord, JSON.stringify(pingInteraction())));
    await inboundPhase(
      stack,
      urls,
      platforms.flatMap((p) => p.asks),
      opts.rate,
    );
    const questions = [];
    for (const p of platforms) questions.push(await p.questions());
    // The asks' last jobs (memory, budgets) done before anything is counted.
    await jobsSettled(stack.gate, Date.now() + REPLY_DEADLINE_MS);
    stack.gate.hold();

    const measured: Measured[] = [];
    for (const [i, platform] of platforms.entries()) {
      // Both presses built before the first is sent (Telegram's fake opens a query only while the buttons show).
      const [first, second] = [await platform.presses(), await platform.presses()];
      const mentions = await inboundPhase(stack, urls, platform.mentions, opts.rate);
      const pressed = await inboundPhase(stack, urls, first, opts.rate);
      const repeated = await inboundPhase(stack, urls, second, opts.rate);
      measured.push({ platform, questions: questions[i]!, presses: first.length, mentions, pressed, repeated });
    }

    await jobsPhase(stack, new Set(), REPLY_DEADLINE_MS);
    const calls = (await (await fetch(`${tools.url}/__calls`)).json()) as ToolServerCalls;
    return Object.fromEntries(measured.map((m) => [m.platform.name, figures(m, calls)])) as ClickFigures;
  } finally {
    await parley.stop().catch(() => {});
    await noop.stop().catch(() => {});
    await tools.close();
  }
}

const ROUTES: Record<ClickPlatformName, string> = {
  slack: "Slack (/slack/interactions; mentions: /slack/events)",
  discord: "Discord (type-3 interactions; mentions: /ask, both /discord/interactions)",
  telegram: "Telegram (callback_query; mentions: a group mention, both /telegram/webhook)",
};

export function printClicks(print: (line: string) => void, all: ClickFigures, opts: { places: number; rate: number }) {
  for (const [name, f] of Object.entries(all) as [ClickPlatformName, PlatformClickFigures][]) {
    print(`Approval buttons on ${ROUTES[name]}: ${f.questions} questions of ${opts.places}, at ${opts.rate}/s`);
    print(
      `  Redis commands per press   ${f.commands_per_press} (target ≤ 4: ${f.press_commands}); repeated ${f.commands_per_repeat_press}`,
    );
    print(
      `  press acknowledgement      p50 ${f.press_p50_ms} ms, p99 ${f.press_p99_ms} ms; repeated p99 ${f.repeat_p99_ms} ms`,
    );
    print(`  mention acknowledgement    p50 ${f.mention_p50_ms} ms, p99 ${f.mention_p99_ms} ms (the same run)`);
    print(`  press p99 / mention p99    ${f.press_mention_p99_ratio}× (target ≤ 1.2×)`);
    print(`  do-nothing Worker p99     ${f.noop_p99_ms} ms (interleaved with both)`);
    print(`  presses not answered 200   ${f.press_statuses_not_200}`);
    print(`  create_ticket runs         ${f.tool_runs} for ${f.questions} questions, keys run twice ${f.tool_repeats}`);
  }
}
