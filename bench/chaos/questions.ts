/**
 * @module
 * bench/chaos's approval questions as people see them (./approvals.ts answers them): on Slack and in Discord guilds
 * by a reaction, by text a YES or NO, and, where the question shows its Approve and Cancel buttons (Slack, Discord
 * in guilds and DMs, Telegram, Google Chat's card), by a press (bench/load/presses.ts): a button nobody sees cannot
 * be pressed. A stranger is someone else in the place (a channel, a guild, a group, a space); a DM or a private chat
 * has none. Each question is found in its platform's fake, by the conversation's tag in its text.
 */
import { APPROVAL_TAG } from "../../lib/notices.ts";
import {
  googleChatClick,
  discordPressBody,
  slackPressBody,
  telegramPressUpdate,
  type PressedControl,
} from "../load/presses.ts";
import { DISCORD_APPLICATION_ID, SLACK_BOT_USER_ID, TWILIO_ACCOUNT_SID, TWILIO_NUMBER } from "../load/traffic.ts";
import { json, origin } from "./checks.ts";
import type { Conversation, InboundMessage } from "./plan.ts";
import type { Sender } from "./send.ts";

/** How an answer goes out: a message to deliver as its platform does, or a Gateway dispatch (Discord reactions). */
/** A message to deliver, or a Gateway dispatch (`word` names it in the trace: ./trace-ids.ts messageOf). */
export type Outgoing = InboundMessage | { word: string; dispatch: () => Promise<boolean> };

export interface Question {
  platform: "slack" | "discord" | "twilio" | "telegram" | "google-chat";
  tag: string;
  /** The asker's reaction or text (`n`: the how-manieth of its kind); absent where the platform reads none. */
  answer?: (verdict: "approve" | "deny", n: number) => Outgoing;
  /**
   * A press of `control` by the asker or a stranger, built now (Telegram's query is opened when the button is
   * pressed); null when nobody could press it. Absent where the question shows no buttons.
   */
  press?: (control: PressedControl, by: "asker" | "stranger") => Promise<InboundMessage | null>;
  /** Whether the platform may deliver the same press again (Discord, Telegram; never Slack nor Google Chat). */
  redelivered: boolean;
  /** Whether anyone but the asker is there to press. */
  strangers: boolean;
}

const SLACK_REACTIONS = { approve: ["white_check_mark", "heavy_check_mark"], deny: ["x"] } as const;
const DISCORD_REACTIONS = { approve: ["✅", "✔️"], deny: ["❌"] } as const;
/** What the texter sends back: the question asks for exactly this (lib/notices.ts, approvalQuestion). */
const TEXT_REPLIES = { approve: "YES", deny: "NO" } as const;
const emoji = <T>(set: { approve: readonly T[]; deny: readonly T[] }, verdict: "approve" | "deny", n: number) =>
  set[verdict][verdict === "approve" ? n : 0]!;

let presses = 0;
const pressWord = (tag: string, control: string, by: string) => `${tag}-press-${control}-${by}-${++presses}`;

async function slackQuestions(s: Sender, conversations: readonly Conversation[]): Promise<Question[]> {
  type Shown = { team: string; channel: string; ts: string; thread_ts?: string; text?: string; bot_id?: string };
  const messages = await json<(Shown & { blocks?: { type: string }[] })[]>(`${s.slackControl}/__messages`);
  const questions: Question[] = [];
  for (const q of messages.filter((m) => m.bot_id && m.text?.startsWith(APPROVAL_TAG))) {
    const c = conversations.find(
      (conv) => conv.place.platform === "slack" && conv.place.tenant === q.team && q.text!.includes(conv.tag),
    );
    if (!c) continue;
    const trigger = JSON.parse(c.messages[0]!.slackBody!) as { team_id: string; event: { user: string } };
    const asker = trigger.event.user;
    const buttons = q.blocks?.some((b) => b.type === "actions") ?? false;
    questions.push({
      platform: "slack",
      tag: c.tag,
      answer: (verdict, n) => {
        const reaction = emoji(SLACK_REACTIONS, verdict, n);
        return {
          word: `${c.tag}-${reaction}-${n}`,
          trigger: false,
          slackBody: reactionBody(trigger.team_id, asker, reaction, q, n),
        };
      },
      ...(buttons
        ? {
            press: async (control: PressedControl, by: "asker" | "stranger") => {
              const user = by === "asker" ? asker : `U${q.team.slice(-1)}STRANGER`;
              const where = { team: q.team, channel: q.channel, user, ts: q.ts, threadTs: q.thread_ts };
              return {
                word: pressWord(c.tag, control, by),
                trigger: false,
                slackPress: slackPressBody(where, control),
              };
            },
          }
        : {}),
      redelivered: false,
      strangers: c.kind !== "slack_dm",
    });
  }
  return questions;
}

/**
 * A Discord question is the edit of its `/ask`'s deferred response; the asker's reaction (in a guild: a reaction in
 * a DM is not read) comes as the Gateway's MESSAGE_REACTION_ADD, which Discord never delivers again: accepted once
 * the Gateway dispatched it to the bot's session.
 */
async function discordQuestions(s: Sender, conversations: readonly Conversation[]): Promise<Question[]> {
  const fake = origin(s.discordFake);
  const edits = await json<{ route: string; token?: string; id?: string; content?: string }[]>(`${fake}/__calls`);
  const shown = await json<{ message: { id: string; components?: unknown[] } }[]>(`${fake}/__messages`);
  const questions: Question[] = [];
  for (const c of conversations.filter((conv) => conv.place.platform === "discord")) {
    const q = edits.find(
      (e) => e.route === "edit_original" && e.token === c.place.channel && e.content?.startsWith(APPROVAL_TAG),
    );
    if (!q?.id) continue;
    const ask = JSON.parse(c.messages[0]!.discordBody!) as {
      channel_id: string;
      guild_id?: string;
      member?: { user: { id: string } };
      user?: { id: string };
    };
    const asker = (ask.member?.user ?? ask.user)!.id;
    const guild = ask.guild_id;
    const buttons = shown.some((m) => m.message.id === q.id && (m.message.components?.length ?? 0) > 0);
    const react = (verdict: "approve" | "deny", n: number): Outgoing => ({
      word: `${c.tag}-gateway_${verdict}-${n}`,
      dispatch: async () => {
        const d = {
          ...{ user_id: asker, channel_id: ask.channel_id, message_id: q.id, guild_id: guild },
          message_author_id: DISCORD_APPLICATION_ID,
          emoji: { id: null, name: emoji(DISCORD_REACTIONS, verdict, n) },
          burst: false,
          type: 0,
        };
        const res = await fetch(`${s.discordGateway}/__dispatch`, {
          method: "POST",
          body: JSON.stringify({ t: "MESSAGE_REACTION_ADD", d, guild_id: guild }),
        });
        return res.ok && ((await res.json()) as { delivered: number }).delivered > 0;
      },
    });
    questions.push({
      platform: "discord",
      tag: c.tag,
      ...(guild ? { answer: react } : {}),
      ...(buttons
        ? {
            press: async (control: PressedControl, by: "asker" | "stranger") => {
              const user = by === "asker" ? asker : `${BigInt(asker) + 7n}`;
              const at = { channelId: ask.channel_id, messageId: q.id!, user, ...(guild ? { guildId: guild } : {}) };
              return {
                word: pressWord(c.tag, control, by),
                trigger: false,
                discordBody: discordPressBody(at, control),
              };
            },
          }
        : {}),
      redelivered: true,
      strangers: guild !== undefined,
    });
  }
  return questions;
}

/** A Telegram question is the bot's message in the conversation's chat that opens with the tag and has a keyboard. */
async function telegramQuestions(s: Sender, conversations: readonly Conversation[]): Promise<Question[]> {
  const messages = await json<{ chat_id: number; message_id: number; text?: string; reply_markup?: unknown }[]>(
    `${s.telegramFake}/__messages`,
  );
  const questions: Question[] = [];
  for (const c of conversations.filter((conv) => conv.place.platform === "telegram")) {
    const q = messages.find(
      (m) => String(m.chat_id) === c.place.channel && m.text?.startsWith(APPROVAL_TAG) && m.reply_markup,
    );
    if (!q) continue;
    const from = (JSON.parse(c.messages[0]!.telegramUpdate!) as { message: { from: { id: number } } }).message.from;
    questions.push({
      platform: "telegram",
      tag: c.tag,
      press: async (control, by) => {
        const presser = by === "asker" ? { id: from.id, first_name: "Asker" } : { id: from.id + 7, first_name: "Bob" };
        const at = { chatId: q.chat_id, messageId: q.message_id, from: presser };
        const update = await telegramPressUpdate(s.telegramFake, at, control);
        return update === null
          ? null
          : { word: pressWord(c.tag, control, by), trigger: false, telegramUpdate: JSON.stringify(update) };
      },
      redelivered: true,
      strangers: c.kind === "telegram_group",
    });
  }
  return questions;
}

/**
 * A Google Chat question is the app's message in the conversation's space that opens with the tag and shows the
 * card's buttons; a click is made in the fake (only on a button the message still shows: null once the decision
 * took the card away), and what the Worker answers it is handed back to the fake, which applies it as Chat does.
 */
async function googleChatQuestions(s: Sender, conversations: readonly Conversation[]): Promise<Question[]> {
  type Shown = { name: string; space: string; text: string; byApp: boolean; cardsV2?: unknown[] };
  const messages = await json<Shown[]>(`${s.googleChatFake}/__messages`);
  const questions: Question[] = [];
  for (const c of conversations.filter((conv) => conv.place.platform === "google-chat")) {
    const q = messages.find(
      (m) => m.space === c.place.channel && m.byApp && m.text.startsWith(APPROVAL_TAG) && m.cardsV2?.length,
    );
    if (!q) continue;
    const asker = c.messages.find((m) => m.trigger)!.googleChat!.from;
    const stranger = { name: `${asker.name}7`, displayName: "Bob" };
    questions.push({
      platform: "google-chat",
      tag: c.tag,
      press: async (control, by) => {
        const at = { space: q.space, message: q.name, by: by === "asker" ? asker : stranger };
        const click = await googleChatClick(s.googleChatFake, at, control);
        return click && { word: pressWord(c.tag, control, by), trigger: false, ...click };
      },
      redelivered: false,
      strangers: c.kind !== "gchat_dm",
    });
  }
  return questions;
}

/** A text's question is the text sent to the texter that names the tool and quotes the conversation's tag. */
async function textQuestions(s: Sender, conversations: readonly Conversation[]): Promise<Question[]> {
  const texts = await json<{ to: string; body: string }[]>(`${s.twilioFake}/__calls`);
  const questions: Question[] = [];
  for (const c of conversations.filter((conv) => conv.place.platform === "twilio")) {
    if (!texts.some((t) => t.to === c.place.channel && t.body.includes("create_ticket") && t.body.includes(c.tag)))
      continue;
    let sid = 0;
    questions.push({
      platform: "twilio",
      tag: c.tag,
      answer: (verdict) => {
        // A sid of its own that carries no tag: the Worker logs message sids, and a tag in a log line is a leak.
        const id = `SMAP${String(c.id).padStart(6, "0")}Y${++sid}`.padEnd(34, "0");
        const params = Object.entries({
          ...{ MessageSid: id, SmsMessageSid: id, AccountSid: TWILIO_ACCOUNT_SID },
          ...{ From: c.place.channel, To: TWILIO_NUMBER, Body: TEXT_REPLIES[verdict], NumMedia: "0" },
        });
        return { word: `${c.tag}-${verdict}-${sid}`, trigger: false, twilioParams: params };
      },
      redelivered: false,
      strangers: false,
    });
  }
  return questions;
}

/** Every approval question up now, platform by platform. */
export async function findQuestions(s: Sender, conversations: readonly Conversation[]): Promise<Question[]> {
  return [
    ...(await slackQuestions(s, conversations)),
    ...(await discordQuestions(s, conversations)),
    ...(await telegramQuestions(s, conversations)),
    ...(await googleChatQuestions(s, conversations)),
    ...(await textQuestions(s, conversations)),
  ];
}

/** Slack's `reaction_added` of `user` on the question, the `n`th reaction event of its kind. */
export function reactionBody(
  team: string,
  user: string,
  reaction: string,
  question: { channel: string; ts: string },
  n: number,
): string {
  const eventTs = `${Math.floor(Date.now() / 1000)}.${String(n).padStart(6, "0")}`;
  return JSON.stringify({
    token: "legacy",
    team_id: team,
    api_app_id: "A0CHAOS",
    type: "event_callback",
    event_id: `Ev${team}${question.ts.replace(".", "")}${reaction}`,
    event_time: Math.floor(Date.now() / 1000),
    event: {
      type: "reaction_added",
      user,
      reaction,
      item_user: SLACK_BOT_USER_ID,
      item: { type: "message", channel: question.channel, ts: question.ts },
      event_ts: eventTs,
    },
    authorizations: [
      { enterprise_id: null, team_id: team, user_id: SLACK_BOT_USER_ID, is_bot: true, is_enterprise_install: false },
    ],
  });
}
