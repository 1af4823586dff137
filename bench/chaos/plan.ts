/**
 * @module
 * The traffic of bench/chaos, drawn from the seed: conversations across Slack channels, threads and DMs in two
 * workspaces (each installed with its own bot token, channel ids unique to each as Slack makes them; the Slack
 * fake keeps each post with the team of the token that made it, so an answer in the wrong tenant shows), Discord
 * `/ask` in guild channels and DMs, SMS, Telegram groups and private chats (./telegram-plan.ts), Google Chat spaces,
 * threads and DMs (./google-chat-plan.ts), and Teams channels and 1:1 chats (./teams-plan.ts). Each conversation has
 * one trigger that needs an answer; Slack channel and Telegram group conversations get chatter after it (recorded,
 * not answered), a Google Chat space and a Teams channel chatter the bot never sees. Every text carries its
 * conversation's tag and a word of its own, so that the checks can tell, from the outside, where a text ended up; a
 * DM's text carries a secret word that must never reach another place's prompt.
 */
import type { Random } from "../../dev/faults/seeded-random.ts";
import { askInteraction, snowflake } from "../../test/support/discord.ts";
import { SLACK_BOT_USER_ID, TWILIO_ACCOUNT_SID, TWILIO_NUMBER } from "../load/traffic.ts";
import type { HeldDelivery } from "../load/fake-deliveries.ts";
import { type ChatLine, type GoogleChatKind, googleChatConversation } from "./google-chat-plan.ts";
import { type TeamsKind, type TeamsLine, teamsConversation } from "./teams-plan.ts";
import { telegramConversation } from "./telegram-plan.ts";
import { toolAsk } from "./tool-asks.ts";

export const SLACK_TEAMS = ["TCHAOSA", "TCHAOSB"] as const;
/**
 * People per workspace: each talks in several places, DMs included, so that a DM's facts could travel; about one
 * person for every 6 conversations, so that nobody asks more than the per-person reply limit (10 a minute) allows.
 */
const peoplePerTeam = (conversations: number) => Math.max(8, Math.ceil(conversations / 6));
const CHATTER_MAX = 3;

type ConversationKind =
  | "slack_channel"
  | "slack_thread"
  | "slack_dm"
  | "discord_guild"
  | "discord_dm"
  | "sms"
  | "telegram_group"
  | "telegram_private"
  | GoogleChatKind
  | TeamsKind
  // Channels that invited the bot to join in (./invited.ts).
  | "slack_initiative"
  | "slack_rescue";
const KINDS: readonly [ConversationKind, number][] = [
  ["slack_channel", 3],
  ["slack_thread", 1],
  ["slack_dm", 1.5],
  ["discord_guild", 1.5],
  ["discord_dm", 1],
  ["sms", 2],
  ["telegram_group", 2],
  ["telegram_private", 1],
  ["gchat_space", 1.5],
  ["gchat_thread", 1],
  ["gchat_dm", 1],
  ["teams_channel", 1.5],
  ["teams_dm", 1],
];

/** Where an answer must show up: platform, tenant, the channel (interaction token, phone number) and thread. */
export interface Place {
  platform: "slack" | "discord" | "twilio" | "telegram" | "google-chat" | "teams";
  tenant: string;
  channel: string;
  thread?: string;
}

export interface InboundMessage {
  /** The word only this message carries. */
  word: string;
  trigger: boolean;
  /** The body as the platform sends it (Slack, Discord: JSON; Twilio: form parameters). */
  slackBody?: string;
  /** Slack: a press of a button, the form body posted to /slack/interactions (never delivered again by Slack). */
  slackPress?: string;
  discordBody?: string;
  twilioParams?: [string, string][];
  /** Telegram: the update as JSON (./telegram-plan.ts). */
  telegramUpdate?: string;
  /** Google Chat, Teams: what the person writes (./google-chat-plan.ts, ./teams-plan.ts). */
  googleChat?: ChatLine;
  teams?: TeamsLine;
  /** Google Chat, Teams: in the thread the conversation's first message started; at the top otherwise. */
  reply?: true;
  /** What the platform sent the bot of a line once it was written in the fake (./send.ts), and how it posts it. */
  written?: { delivery: HeldDelivery; request(baseUrl: string, delivery: HeldDelivery): Request };
  /** Google Chat: a click's answer, handed back to the fake as Chat reads it (bench/load/presses.ts). */
  answered?(status: number, text: string): Promise<void>;
}

export interface Conversation {
  id: number;
  kind: ConversationKind;
  /** In every text of this conversation. */
  tag: string;
  place: Place;
  /** Slack, Google Chat DMs and Telegram private chats: the word that must stay in this DM. */
  secret?: string;
  messages: InboundMessage[];
}

export const tagOf = (id: number) => `kz${id}kz`;
const secretOf = (id: number) => `dmsecret${id}x`;
/** Finds every conversation tag in a text. */
export const TAG_PATTERN = /kz(\d+)kz/g;
export const SECRET_PATTERN = /dmsecret(\d+)x/g;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function pickKind(random: Random): ConversationKind {
  const total = KINDS.reduce((sum, [, w]) => sum + w, 0);
  let r = random() * total;
  for (const [kind, weight] of KINDS) {
    r -= weight;
    if (r < 0) return kind;
  }
  return "sms";
}

/** Slack ts values: wall-clock seconds (the Worker compares them with its clock) with a unique fraction. */
export function slackClock(): () => string {
  let last = Date.now() * 1000;
  return () => {
    last = Math.max(last + 1000, Date.now() * 1000);
    return (last / 1e6).toFixed(6);
  };
}

export function slackEventBody(
  team: string,
  channel: string,
  user: string,
  text: string,
  ts: string,
  opts: { threadTs?: string; im?: boolean },
): string {
  return JSON.stringify({
    token: "legacy",
    team_id: team,
    api_app_id: "A0CHAOS",
    type: "event_callback",
    event_id: `Ev${team}${ts.replace(".", "")}`,
    event_time: Math.floor(Number(ts)),
    event: {
      type: "message",
      user,
      text,
      ts,
      channel,
      event_ts: ts,
      channel_type: opts.im ? "im" : "channel",
      ...(opts.threadTs ? { thread_ts: opts.threadTs } : {}),
    },
    authorizations: [
      { enterprise_id: null, team_id: team, user_id: SLACK_BOT_USER_ID, is_bot: true, is_enterprise_install: false },
    ],
  });
}

export function planConversations(count: number, random: Random, run: string): Conversation[] {
  const nextTs = slackClock();
  const people = (team: string) => Array.from({ length: peoplePerTeam(count) }, (_, i) => `U${team.slice(-1)}P${i}`);
  const conversations: Conversation[] = [];
  // Channel conversations alternate between the workspaces, each in a channel of its own: C<run><team><id>.
  let channels = 0;
  for (let id = 0; id < count; id++) {
    const kind = pickKind(random);
    const tag = tagOf(id);
    const word = (n: number) => `w${id}n${n}w`;
    if (kind === "slack_channel" || kind === "slack_thread" || kind === "slack_dm") {
      const im = kind === "slack_dm";
      const team = im ? pick(random, SLACK_TEAMS) : SLACK_TEAMS[channels % 2]!;
      if (!im) channels++;
      const channel = im ? `D${run}${id}` : `C${run}${team.slice(-1)}${id}`;
      const threadTs = kind === "slack_thread" ? nextTs() : undefined;
      const asker = pick(random, people(team));
      const secret = im ? secretOf(id) : undefined;
      const triggerText = im
        ? `${tag} ${word(0)} my locker code is ${secret}, can you keep it in mind?${toolAsk(id, tag)}`
        : `<@${SLACK_BOT_USER_ID}> ${tag} ${word(0)} what do you think of plan ${id}?${toolAsk(id, tag)}`;
      const messages: InboundMessage[] = [
        {
          word: word(0),
          trigger: true,
          slackBody: slackEventBody(team, channel, asker, triggerText, nextTs(), { threadTs, im }),
        },
      ];
      if (!im) {
        const chatter = 1 + Math.floor(random() * CHATTER_MAX);
        for (let n = 1; n <= chatter; n++) {
          const text = `${tag} ${word(n)} I think step ${n} is fine`;
          messages.push({
            word: word(n),
            trigger: false,
            slackBody: slackEventBody(team, channel, pick(random, people(team)), text, nextTs(), { threadTs }),
          });
        }
      }
      conversations.push({
        id,
        kind,
        tag,
        place: { platform: "slack", tenant: team, channel, ...(threadTs ? { thread: threadTs } : {}) },
        ...(secret ? { secret } : {}),
        messages,
      });
    } else if (kind === "telegram_group" || kind === "telegram_private") {
      conversations.push(telegramConversation(kind, id, tag, word, secretOf(id), random, run));
    } else if (kind === "gchat_space" || kind === "gchat_thread" || kind === "gchat_dm") {
      conversations.push(googleChatConversation(kind, id, tag, word, secretOf(id), random, run));
    } else if (kind === "teams_channel" || kind === "teams_dm") {
      conversations.push(teamsConversation(kind, { id, tag, word, secret: secretOf(id), random, run }));
    } else if (kind === "discord_guild" || kind === "discord_dm") {
      const guildId = kind === "discord_guild" ? snowflake() : undefined;
      const interaction = askInteraction(
        { ...(guildId ? { guildId } : {}), channelId: snowflake() },
        { id: snowflake(), name: `Person${id}` },
        `${tag} ${word(0)} what about plan ${id}?${toolAsk(id, tag)}`,
      );
      conversations.push({
        id,
        kind,
        tag,
        place: { platform: "discord", tenant: guildId ?? "dm", channel: interaction.token },
        messages: [{ word: word(0), trigger: true, discordBody: JSON.stringify(interaction) }],
      });
    } else {
      const from = `+1555${run.length}${String(id).padStart(6, "0")}`;
      const sid = `SM${run}${String(id).padStart(10, "0")}`;
      const params: [string, string][] = [
        ["MessageSid", sid],
        ["SmsMessageSid", sid],
        ["AccountSid", TWILIO_ACCOUNT_SID],
        ["From", from],
        ["To", TWILIO_NUMBER],
        ["Body", `${tag} ${word(0)} what is the answer to ${id}?${toolAsk(id, tag)}`],
        ["NumMedia", "0"],
        ["NumSegments", "1"],
      ];
      conversations.push({
        id,
        kind,
        tag,
        place: { platform: "twilio", tenant: TWILIO_ACCOUNT_SID, channel: from },
        messages: [{ word: word(0), trigger: true, twilioParams: params }],
      });
    }
  }
  return conversations;
}
