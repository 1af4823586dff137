/**
 * @module
 * bench/load's `backfill` scenario (`npm run bench:load -- --scenario backfill`): what reading the place costs when
 * a conversation starts (lib/jobs/backfill.ts). The same conversation starts (a Slack mention in a channel whose
 * Slack history holds `earlier` messages, a Discord /ask, an SMS, a Telegram mention) go to Parley twice, with
 * backfill on (the defaults) and off (BACKFILL_MESSAGES=0), one platform at a time, and the bench prints per
 * conversation start: the platform's history calls, the messages merged, the Redis commands of the webhook (which
 * must not change) and of the jobs (reply and memory), on and off.
 */
import type { PlannedMessage, DiscordSigner, Platform } from "./traffic.ts";
import * as traffic from "./traffic.ts";
import { costOf, jobsPhase } from "./phases.ts";
import { sendAtRate } from "./send.ts";
import type { Stack } from "./stack.ts";
import { makeTelegramChats } from "./telegram-traffic.ts";
import { startParleyOn } from "./workers.ts";

const PLATFORMS: readonly Platform[] = ["slack", "discord", "twilio", "telegram"];
const REPLY_DEADLINE_MS = 120_000;
const WARMUP_PER_PLATFORM = 3;

export interface BackfillOptions {
  places: number;
  telegram: number;
  /** Messages each Slack channel's history holds before its mention. */
  earlier: number;
  rate: number;
}

/** Per platform, per conversation start. */
export interface BackfillRow {
  platform: Platform;
  starts: number;
  historyCalls: number;
  merged: number;
  webhookCommands: { on: number; off: number };
  jobCommands: { on: number; off: number };
}

interface RunFigures {
  starts: number;
  historyCalls: number;
  stored: number;
  webhookCommands: number;
  jobCommands: number;
}

const origin = (url: string) => new URL(url).origin;
const getJson = async <T>(url: string): Promise<T> => (await (await fetch(url)).json()) as T;

/** The platform calls that read a place so far: Slack's history and replies, Discord's channel listings. */
async function historyCalls(stack: Stack, platform: Platform): Promise<number> {
  if (platform === "slack") {
    const [history, replies] = await Promise.all(
      ["conversations.history", "conversations.replies"].map((m) =>
        getJson<unknown[]>(`${origin(stack.fakes.slack)}/__api?method=${m}`),
      ),
    );
    return history!.length + replies!.length;
  }
  if (platform === "discord")
    return (await getJson<unknown[]>(`${origin(stack.fakes.discord)}/__calls?route=list_messages`)).length;
  return 0;
}

/** Slack keeps what people said in the channel in the ten minutes before the mention (the bot heard none of it). */
async function seedSlackHistory(stack: Stack, mentions: readonly PlannedMessage[], earlier: number): Promise<void> {
  const since = Math.floor(Date.now() / 1000) - 600;
  for (const m of mentions.filter((x) => x.platform === "slack")) {
    for (let i = 0; i < earlier; i++) {
      const ts = `${since + i}.000000`;
      const body = JSON.stringify({
        channel: m.place,
        ts,
        user: `UPEOPLE${i % 3}`,
        text: `earlier message ${i} about the release in ${m.place}`,
      });
      const res = await fetch(`${origin(stack.fakes.slack)}/__messages`, { method: "POST", body });
      if (!res.ok) throw new Error(`the Slack fake refused a message: ${res.status}`);
    }
  }
}

async function run(
  stack: Stack,
  discord: DiscordSigner,
  opts: BackfillOptions,
  setting: "on" | "off",
): Promise<Map<Platform, RunFigures>> {
  const prefix = `BF${setting.toUpperCase()}`;
  const worker = await startParleyOn(
    { ...stack, publicBaseUrl: stack.gate.url, port: stack.workerPort },
    discord,
    prefix,
    setting === "off" ? { BACKFILL_MESSAGES: "0" } : {},
  );
  const plan = (run: string) =>
    traffic
      .planTraffic({
        places: opts.places,
        chatterPerSlackChannel: 1,
        quietSlackChannels: 1,
        run,
        publicBaseUrl: stack.gate.url,
        discord,
        discordFakeUrl: stack.fakes.discord,
        telegram: { groups: opts.telegram, quiet: 0 },
      })
      .filter((m) => m.kind === "new_mention" || m.kind === "tg_new_mention");
  const figures = new Map<Platform, RunFigures>();
  try {
    // Every script cached, on both sides of the gate, before anything is measured.
    const warmup = PLATFORMS.flatMap((p) =>
      plan(`${prefix}W`)
        .filter((m) => m.platform === p)
        .slice(0, WARMUP_PER_PLATFORM),
    );
    await makeTelegramChats(stack.fakes.telegram, warmup);
    stack.gate.open();
    await sendAtRate(worker.url, warmup, opts.rate);
    await jobsPhase(stack, new Set(warmup.map((m) => m.place)), REPLY_DEADLINE_MS);
    const mentions = plan(`${prefix}${Date.now().toString(36).toUpperCase()}`);
    await makeTelegramChats(stack.fakes.telegram, mentions);
    await seedSlackHistory(stack, mentions, opts.earlier);
    for (const platform of PLATFORMS) {
      const starts = mentions.filter((m) => m.platform === platform);
      if (starts.length === 0) continue;
      stack.gate.hold();
      const logs = `${prefix}:conv:${platform}|*:log`;
      const [callsBefore, storedBefore] = [await historyCalls(stack, platform), await stack.storedMessages(logs)];
      const webhook = await costOf(stack, () => sendAtRate(worker.url, starts, opts.rate));
      const jobs = await jobsPhase(stack, new Set(starts.map((m) => m.place)), REPLY_DEADLINE_MS);
      figures.set(platform, {
        starts: starts.length,
        historyCalls: (await historyCalls(stack, platform)) - callsBefore,
        stored: (await stack.storedMessages(logs)) - storedBefore,
        webhookCommands: webhook.commands,
        jobCommands: jobs.commands,
      });
    }
  } finally {
    stack.gate.open();
    await worker.stop();
  }
  return figures;
}

export async function backfillScenario(
  stack: Stack,
  discord: DiscordSigner,
  opts: BackfillOptions,
): Promise<BackfillRow[]> {
  const on = await run(stack, discord, opts, "on");
  const off = await run(stack, discord, opts, "off");
  const per = (n: number, starts: number) => Math.round((n / starts) * 10) / 10;
  return PLATFORMS.flatMap((platform) => {
    const a = on.get(platform);
    const b = off.get(platform);
    if (!a || !b) return [];
    return [
      {
        platform,
        starts: a.starts,
        historyCalls: per(a.historyCalls, a.starts),
        merged: per(a.stored - b.stored, a.starts),
        webhookCommands: { on: per(a.webhookCommands, a.starts), off: per(b.webhookCommands, b.starts) },
        jobCommands: { on: per(a.jobCommands, a.starts), off: per(b.jobCommands, b.starts) },
      },
    ];
  });
}

export function printBackfill(
  print: (line: string) => void,
  rows: readonly BackfillRow[],
  opts: BackfillOptions,
): void {
  print(
    `backfill: conversation starts with reading the place on (defaults) and off (BACKFILL_MESSAGES=0); ${opts.earlier} earlier messages in each Slack channel`,
  );
  print(
    "platform   starts  history calls/start  merged/start  webhook Redis cmds/start (on | off)  job Redis cmds/start (on | off)",
  );
  for (const r of rows) {
    const cells = [
      r.platform.padEnd(9),
      String(r.starts).padStart(6),
      String(r.historyCalls).padStart(20),
      String(r.merged).padStart(13),
    ];
    print(
      `${cells.join(" ")}  ${`${r.webhookCommands.on} | ${r.webhookCommands.off}`.padStart(35)}  ${`${r.jobCommands.on} | ${r.jobCommands.off}`.padStart(31)}`,
    );
  }
}
