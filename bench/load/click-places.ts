/**
 * @module
 * The places of bench/load's clicks scenario (./clicks.ts), one kind per platform that shows an approval's buttons:
 * Slack channels (a mention asks, Events API), Discord guild channels (`/ask`, an interaction, its answer told to the
 * Discord fake as Discord learns it) and Telegram groups (a mention, the webhook). Each asks for the confirm-only
 * create_ticket with a title that names its platform and place; once its question shows the buttons, its asker's
 * presses are built as the platform sends them (./presses.ts); and each platform has a mention of its own that
 * starts a conversation (one job published, as a deciding press publishes the continuation), to set the presses'
 * acknowledgement beside.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { reportInteractionAnswer } from "../../dev/fakes/discord/interaction-answers.ts";
import { APPROVAL_TAG } from "../../lib/notices.ts";
import { askInteraction, snowflake } from "../../test/support/discord.ts";
import { discordPressBody, slackPressBody, slackPressRequest, telegramPressUpdate } from "./presses.ts";
import type { Stack } from "./stack.ts";
import { groupUpdate, makeTelegramChats, TELEGRAM_BOT, telegramRequest } from "./telegram-traffic.ts";
import * as traffic from "./traffic.ts";

const TEAM = "TBENCH";
const QUESTIONS_DEADLINE_MS = 120_000;
const POLL_MS = 250;

export type ClickPlatformName = "slack" | "discord" | "telegram";

export interface ClickPlatform {
  name: ClickPlatformName;
  /** In every create_ticket title of this platform's places. */
  titleMark: string;
  asks: traffic.PlannedMessage[];
  /** As many new conversations as places, elsewhere. */
  mentions: traffic.PlannedMessage[];
  /** Makes the places where the platform needs them made first. */
  prepare(): Promise<void>;
  /** Waits until each place's question shows its buttons (or the deadline); how many do. */
  questions(): Promise<number>;
  /** The asker's press of Approve on each question with buttons, built now (a new press on each call). */
  presses(): Promise<traffic.PlannedMessage[]>;
}

const planned = (
  platform: traffic.Platform,
  kind: traffic.MessageKind,
  place: string,
  request: (url: string) => Request,
  answered?: traffic.PlannedMessage["answered"],
): traffic.PlannedMessage => ({
  platform,
  kind,
  place,
  needsAnswer: false,
  request,
  ...(answered ? { answered } : {}),
});

/** Polls `found` (each place's question once its buttons show) until every place has one or the deadline passed. */
async function untilShown<Q>(places: number, found: () => Promise<Map<number, Q>>): Promise<Map<number, Q>> {
  const deadline = Date.now() + QUESTIONS_DEADLINE_MS;
  for (;;) {
    const shown = await found();
    if (shown.size >= places || Date.now() > deadline) return shown;
    await sleep(POLL_MS);
  }
}

const askText = (mark: string, n: number) => `create_ticket {"title": "Printer ${mark}${n} jammed"}`;

function slackPlaces(stack: Stack, run: string, places: number): ClickPlatform {
  const control = new URL(stack.fakes.slack).origin;
  const channel = (n: number) => `CCLK${run}${n}`;
  const asker = (n: number) => `UCLKASK${n}`;
  const base = Math.floor(Date.now() / 1000);
  const mention = (where: string, n: number, text: string, second: number) => {
    const ts = `${base + second}.${String(n).padStart(6, "0")}`;
    const body = traffic.slackEvent(TEAM, where, asker(n), `<@${traffic.SLACK_BOT_USER_ID}> ${text}`, ts);
    return planned("slack", "new_mention", where, (url) => traffic.slackRequest(url, body));
  };
  const mark = `S${run}-`;
  let shown = new Map<number, string>();
  return {
    name: "slack",
    titleMark: mark,
    asks: Array.from({ length: places }, (_, n) => mention(channel(n), n, askText(mark, n), 0)),
    mentions: Array.from({ length: places }, (_, n) => mention(`${channel(n)}M`, n, "and the scanner?", 1)),
    prepare: async () => {},
    questions: async () => {
      shown = await untilShown(places, async () => {
        const messages = (await (await fetch(`${control}/__messages`)).json()) as {
          channel: string;
          ts: string;
          text?: string;
          blocks?: { type: string }[];
        }[];
        const found = new Map<number, string>();
        for (let n = 0; n < places; n++) {
          const q = messages.find(
            (m) =>
              m.channel === channel(n) &&
              m.text?.startsWith(APPROVAL_TAG) &&
              m.blocks?.some((b) => b.type === "actions"),
          );
          if (q) found.set(n, q.ts);
        }
        return found;
      });
      return shown.size;
    },
    presses: async () =>
      [...shown].map(([n, ts]) => {
        const body = slackPressBody({ team: TEAM, channel: channel(n), user: asker(n), ts }, "approve");
        return planned("slack", "active", channel(n), (url) => slackPressRequest(url, body));
      }),
  };
}

function discordPlaces(stack: Stack, signer: traffic.DiscordSigner, run: string, places: number): ClickPlatform {
  const fake = new URL(stack.fakes.discord).origin;
  const guild = snowflake();
  const askers = Array.from({ length: places }, () => snowflake());
  const interaction = (n: number, text: string) => {
    const ask = askInteraction({ guildId: guild, channelId: snowflake() }, { id: askers[n]!, name: `Asker${n}` }, text);
    return { ask, message: discordMessage(ask.token, JSON.stringify(ask)) };
  };
  const discordMessage = (place: string, body: string) =>
    planned(
      "discord",
      "new_mention",
      place,
      (url) => traffic.discordRequest(url, signer, body),
      (answer, ms) => reportInteractionAnswer(stack.fakes.discord, body, answer, ms),
    );
  const mark = `D${run}-`;
  const asks = Array.from({ length: places }, (_, n) => interaction(n, askText(mark, n)));
  let shown = new Map<number, string>();
  return {
    name: "discord",
    titleMark: mark,
    asks: asks.map((a) => a.message),
    mentions: Array.from({ length: places }, (_, n) => interaction(n, "and the scanner?").message),
    prepare: async () => {},
    questions: async () => {
      shown = await untilShown(places, async () => {
        const edits = (await (await fetch(`${fake}/__calls`)).json()) as {
          route: string;
          token?: string;
          id?: string;
          content?: string;
        }[];
        const messages = (await (await fetch(`${fake}/__messages`)).json()) as {
          message: { id: string; components?: unknown[] };
        }[];
        const found = new Map<number, string>();
        asks.forEach(({ ask }, n) => {
          const q = edits.find(
            (e) => e.route === "edit_original" && e.token === ask.token && e.content?.startsWith(APPROVAL_TAG),
          );
          if (q?.id && messages.some((m) => m.message.id === q.id && (m.message.components?.length ?? 0) > 0))
            found.set(n, q.id);
        });
        return found;
      });
      return shown.size;
    },
    presses: async () =>
      [...shown].map(([n, messageId]) => {
        const at = { guildId: guild, channelId: asks[n]!.ask.channel_id, messageId, user: askers[n]! };
        return discordMessage(asks[n]!.ask.token, discordPressBody(at, "approve"));
      }),
  };
}

function telegramPlaces(stack: Stack, run: string, places: number): ClickPlatform {
  const chat = (n: number, second: boolean) =>
    -(3_100_000_000_000 + (parseInt(run, 36) % 100_000) * 1000 + n * 2 + (second ? 1 : 0));
  const asker = (n: number) => 70_000_000 + n;
  const mark = `T${run}-`;
  const mention = (n: number, second: boolean, text: string) => {
    const update = groupUpdate(chat(n, second), 1, asker(n), text, true);
    return planned("telegram", "tg_new_mention", String(chat(n, second)), (url) => telegramRequest(url, update));
  };
  const asks = Array.from({ length: places }, (_, n) => mention(n, false, askText(mark, n)));
  const mentions = Array.from({ length: places }, (_, n) => mention(n, true, "and the scanner?"));
  let shown = new Map<number, number>();
  return {
    name: "telegram",
    titleMark: mark,
    asks,
    mentions,
    prepare: () => makeTelegramChats(stack.fakes.telegram, [...asks, ...mentions]),
    questions: async () => {
      shown = await untilShown(places, async () => {
        const messages = (await (await fetch(`${stack.fakes.telegram}/__messages`)).json()) as {
          chat_id: number;
          message_id: number;
          from: number;
          text?: string;
          reply_markup?: unknown;
        }[];
        const found = new Map<number, number>();
        for (let n = 0; n < places; n++) {
          const q = messages.find(
            (m) =>
              m.chat_id === chat(n, false) &&
              m.from === TELEGRAM_BOT.id &&
              m.text?.startsWith(APPROVAL_TAG) &&
              m.reply_markup,
          );
          if (q) found.set(n, q.message_id);
        }
        return found;
      });
      return shown.size;
    },
    presses: async () => {
      const presses: traffic.PlannedMessage[] = [];
      for (const [n, messageId] of shown) {
        const from = { id: asker(n), first_name: `Person${asker(n)}` };
        const update = await telegramPressUpdate(
          stack.fakes.telegram,
          { chatId: chat(n, false), messageId, from },
          "approve",
        );
        if (update !== null)
          presses.push(planned("telegram", "tg_active", String(chat(n, false)), (url) => telegramRequest(url, update)));
      }
      return presses;
    },
  };
}

export function clickPlatforms(
  stack: Stack,
  signer: traffic.DiscordSigner,
  run: string,
  places: number,
): ClickPlatform[] {
  return [
    slackPlaces(stack, run, places),
    discordPlaces(stack, signer, run, places),
    telegramPlaces(stack, run, places),
  ];
}
