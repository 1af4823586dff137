/**
 * @module
 * bench/load's `clicks` scenario (`npm run bench:load -- --scenario clicks`): what a press on an approval's button
 * costs (docs/tools.md, "Actions that need approval"). Each of `places` Slack channels asks for the confirm-only
 * create_ticket; once every question carries its Approve and Cancel buttons, the jobs are held and the askers press
 * Approve (Slack's signed block_actions, form-encoded, to /slack/interactions), then press it again (a double click:
 * already decided), then as many mentions that start a conversation go to /slack/events at the same rate (each
 * publishes one job, as a deciding press publishes the continuation): three phases of one run, each interleaved with
 * the do-nothing Worker. Printed: the Redis commands per press (script internals counted), each phase's
 * acknowledgement p50/p99 and the presses' p99 over the mentions' (target ≤ 1.2×);
 * then the jobs run and the tool server counts create_ticket by idempotency key (one per question, never two).
 */
import { createHmac } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../../dev/ports.ts";
import { startToolServer, type ToolServerCalls } from "../../dev/tools/server.ts";
import { devToolSettings } from "../../dev/tools/settings.ts";
import fixture from "../../test/fixtures/platforms/slack/block-actions.json" with { type: "json" };
import { type InboundPhase, inboundPhase, jobsPhase, jobsSettled } from "./phases.ts";
import type { Stack } from "./stack.ts";
import { breakdown } from "./report.ts";
import { percentile, round } from "./stats.ts";
import * as traffic from "./traffic.ts";
import { startNoop, startParleyOn } from "./workers.ts";

const TEAM = "TBENCH";
const QUESTIONS_DEADLINE_MS = 120_000;
const REPLY_DEADLINE_MS = 120_000;
const POLL_MS = 250;

interface FakeMessage {
  channel: string;
  ts: string;
  bot_id?: string;
  blocks?: { type: string; elements?: { action_id?: string }[] }[];
}

export interface ClickFigures {
  questions: number;
  /** Per press, by command: `evalsha 1, hmget 1, …`. */
  press_commands: string;
  commands_per_press: number;
  commands_per_repeat_press: number;
  press_p50_ms: number;
  press_p99_ms: number;
  repeat_p99_ms: number;
  event_p50_ms: number;
  event_p99_ms: number;
  /** The presses' p99 over the events route's, measured in the same run. */
  press_event_p99_ratio: number;
  /** The do-nothing Worker's p99 over the press and mention phases: how loaded the machine was. */
  noop_p99_ms: number;
  press_statuses_not_200: number;
  /** create_ticket calls at the tool server, by idempotency key: one per question. */
  tool_runs: number;
  /** Keys called more than once. */
  tool_repeats: number;
}

const channelOf = (run: string, n: number) => `CCLK${run}${n}`;
const askerOf = (n: number) => `UCLKASK${n}`;

/** Slack's documented block_actions payload (test/fixtures), pressed by `user` on `actionId` of message `ts`. */
function pressRequest(baseUrl: string, channel: string, user: string, ts: string, actionId: string): Request {
  const payload = structuredClone(fixture.payload);
  Object.assign(payload.user, { id: user, team_id: TEAM });
  Object.assign(payload.container, { message_ts: ts, channel_id: channel });
  Object.assign(payload.team, { id: TEAM });
  Object.assign(payload.channel, { id: channel });
  payload.actions[0]!.action_id = actionId;
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const at = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac("sha256", traffic.SLACK_SIGNING_SECRET).update(`v0:${at}:${body}`).digest("hex")}`;
  return new Request(`${baseUrl}/slack/interactions`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Slack-Request-Timestamp": at,
      "X-Slack-Signature": signature,
    },
    body,
  });
}

const slackMessage = (channel: string, kind: traffic.MessageKind, request: (url: string) => Request) => ({
  platform: "slack" as const,
  kind,
  place: channel,
  needsAnswer: false,
  request,
});

/** Each channel's question, once its buttons are on, by channel. */
async function questionsWithButtons(stack: Stack, channels: readonly string[]): Promise<Map<string, FakeMessage>> {
  const control = new URL(stack.fakes.slack).origin;
  const deadline = Date.now() + QUESTIONS_DEADLINE_MS;
  for (;;) {
    const found = new Map<string, FakeMessage>();
    for (const m of (await (await fetch(`${control}/__messages`)).json()) as FakeMessage[])
      if (m.bot_id && m.blocks?.some((b) => b.type === "actions")) found.set(m.channel, m);
    if (channels.every((c) => found.has(c)) || Date.now() > deadline) return found;
    await sleep(POLL_MS);
  }
}

const acksOf = (phase: InboundPhase) => phase.acks.parley.map((a) => a.ms);

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
    const run = Date.now().toString(36).toUpperCase();
    const channels = Array.from({ length: opts.places }, (_, n) => channelOf(run, n));
    const base = Math.floor(Date.now() / 1000);
    const asks = channels.map((channel, n) => {
      const text = `<@${traffic.SLACK_BOT_USER_ID}> create_ticket {"title": "Printer ${n} jammed"}`;
      const body = traffic.slackEvent(TEAM, channel, askerOf(n), text, `${base}.${String(n).padStart(6, "0")}`);
      return slackMessage(channel, "new_mention", (url) => traffic.slackRequest(url, body));
    });
    stack.gate.open();
    await inboundPhase(stack, urls, asks, opts.rate);
    const questions = await questionsWithButtons(stack, channels);
    // The asks' last jobs (memory, budgets) done before anything is counted.
    await jobsSettled(stack.gate, Date.now() + REPLY_DEADLINE_MS);
    stack.gate.hold();

    const presses = channels.flatMap((channel, n) => {
      const q = questions.get(channel);
      return q
        ? [slackMessage(channel, "active", (url) => pressRequest(url, channel, askerOf(n), q.ts, "approve"))]
        : [];
    });
    const mentions = channels.map((channel, n) => {
      const text = `<@${traffic.SLACK_BOT_USER_ID}> and what about the scanner?`;
      const body = traffic.slackEvent(
        TEAM,
        `${channel}M`,
        askerOf(n),
        text,
        `${base + 1}.${String(n).padStart(6, "0")}`,
      );
      return slackMessage(`${channel}M`, "new_mention", (url) => traffic.slackRequest(url, body));
    });
    const events = await inboundPhase(stack, urls, mentions, opts.rate);
    const pressed = await inboundPhase(stack, urls, presses, opts.rate);
    const repeated = await inboundPhase(stack, urls, presses, opts.rate);

    await jobsPhase(stack, new Set(), REPLY_DEADLINE_MS);
    const calls = (await (await fetch(`${tools.url}/__calls`)).json()) as ToolServerCalls;
    const created = Object.entries(calls.byKey).filter(([key]) => channels.some((c) => key.includes(c)));
    const pressP99 = percentile(acksOf(pressed), 99);
    const eventP99 = percentile(acksOf(events), 99);
    return {
      questions: questions.size,
      press_commands: breakdown(pressed, presses.length),
      commands_per_press: round(pressed.commands / Math.max(1, presses.length), 1),
      commands_per_repeat_press: round(repeated.commands / Math.max(1, presses.length), 1),
      press_p50_ms: round(percentile(acksOf(pressed), 50), 1),
      press_p99_ms: round(pressP99, 1),
      repeat_p99_ms: round(percentile(acksOf(repeated), 99), 1),
      event_p50_ms: round(percentile(acksOf(events), 50), 1),
      event_p99_ms: round(eventP99, 1),
      press_event_p99_ratio: round(pressP99 / Math.max(eventP99, 0.001)),
      noop_p99_ms: round(
        percentile(
          [...pressed.acks.noop, ...events.acks.noop].map((a) => a.ms),
          99,
        ),
        1,
      ),
      press_statuses_not_200: [...pressed.acks.parley, ...repeated.acks.parley].filter((a) => a.status !== 200).length,
      tool_runs: created.length,
      tool_repeats: created.filter(([, n]) => n > 1).length,
    };
  } finally {
    await parley.stop().catch(() => {});
    await noop.stop().catch(() => {});
    await tools.close();
  }
}

export function printClicks(print: (line: string) => void, f: ClickFigures, opts: { places: number; rate: number }) {
  print(`Approval buttons on Slack: ${f.questions} questions of ${opts.places} channels, presses at ${opts.rate}/s`);
  print(
    `  Redis commands per press   ${f.commands_per_press} (target ≤ 4: ${f.press_commands}); repeated ${f.commands_per_repeat_press}`,
  );
  print(
    `  press acknowledgement      p50 ${f.press_p50_ms} ms, p99 ${f.press_p99_ms} ms; repeated p99 ${f.repeat_p99_ms} ms`,
  );
  print(`  mention acknowledgement    p50 ${f.event_p50_ms} ms, p99 ${f.event_p99_ms} ms (the same run)`);
  print(`  press p99 / mention p99    ${f.press_event_p99_ratio}× (target ≤ 1.2×)`);
  print(`  do-nothing Worker p99     ${f.noop_p99_ms} ms (interleaved with both)`);
  print(`  presses not answered 200   ${f.press_statuses_not_200}`);
  print(`  create_ticket runs         ${f.tool_runs} for ${f.questions} questions, keys run twice ${f.tool_repeats}`);
}
