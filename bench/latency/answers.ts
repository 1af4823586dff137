/**
 * @module
 * The questions of bench/latency, one conversation each, signed as the platforms sign them: a Slack mention in a
 * thread (Slack streams there) or in the channel itself (edited as it grows), a Discord `/ask`, a Discord channel
 * message mentioning the bot, dispatched by the fake Gateway of the Worker's bot, and Telegram: a mention in a group
 * and a message in a private chat (./telegram.ts), Google Chat: a mention in a space and a DM's message
 * (./google-chat.ts), Teams: a mention in a channel and a 1:1 chat's message (./teams.ts); and a Slack thread question
 * that takes one tool round (a ticket
 * lookup at the local tool server). Each carries a marker of its own,
 * so that the model's record of requests tells when its answer was asked for.
 */
import { DISCORD_FAKE_BOT } from "../../dev/fakes/discord.ts";
import { askInteraction, snowflake } from "../../test/support/discord.ts";
import { reportInteractionAnswer } from "../../dev/fakes/discord/interaction-answers.ts";
import * as traffic from "../load/traffic.ts";
import { ASK_TIMEOUT_MS } from "./ask.ts";
import { askOnGoogleChat, googleChatSpace } from "./google-chat.ts";
import { askOnTeams } from "./teams.ts";
import { askOnTelegram, telegramChat } from "./telegram.ts";

export const KINDS = [
  "slack_thread",
  "slack_channel",
  "discord_interaction",
  "discord_gateway",
  "telegram_group",
  "telegram_private",
  "gchat_space",
  "gchat_dm",
  "teams_channel",
  "teams_dm",
  "slack_tool",
] as const;
export type Kind = (typeof KINDS)[number];
export const MODES = ["streaming", "streaming_off"] as const;
export type Mode = (typeof MODES)[number];

const SLACK_KIND_TEAMS: Partial<Record<Kind, string>> = {
  slack_thread: "THREAD",
  slack_channel: "CHANNEL",
  slack_tool: "TOOL",
};
/**
 * The Slack workspace of each kind and mode (./install.ts); only the tool kind's workspaces have a tool (./stack.ts).
 */
const slackTeam = (kind: Kind, mode: Mode) =>
  `TLAT${SLACK_KIND_TEAMS[kind] ?? "CHANNEL"}${mode === "streaming" ? "ON" : "OFF"}`;
export const SLACK_TEAMS = MODES.flatMap((mode) =>
  ["slack_thread", "slack_channel", "slack_tool"].map((kind) => slackTeam(kind as Kind, mode)),
);
export const TOOL_TEAMS = MODES.map((mode) => slackTeam("slack_tool", mode));
const GUILD = "350000000000000001";

export interface Question {
  kind: Kind;
  mode: Mode;
  marker: string;
  /** Slack or Discord channel, or Discord interaction token: where the answer shows (Teams: once asked). */
  place: string;
  /** Sends the question; resolves with when it was accepted (a webhook) or dispatched (the Gateway), epoch ms. */
  ask(to: Recipient): Promise<number>;
}

/** The Worker of a question's mode, and its bot's Gateway (dispatches a MESSAGE_CREATE, returns when, epoch ms). */
interface Recipient {
  workerUrl: string;
  dispatch(message: object): number;
  /** The Telegram fake, where a Telegram question's chat is made. */
  telegramFake: string;
  /** The Google Chat fake, where a Google Chat question's space is made and written in. */
  googleChatFake: string;
  /** The Teams fake, where a Teams question's conversation is made and written in. */
  teamsFake: string;
}

const webhook =
  (
    kind: Kind,
    request: (url: string) => Request,
    answered?: (answer: { status: number; text: string }, ms: number) => Promise<void>,
  ) =>
  async (to: Recipient) => {
    const sent = Date.now();
    const res = await fetch(request(to.workerUrl), { signal: AbortSignal.timeout(ASK_TIMEOUT_MS) });
    const text = await res.text();
    const acceptedAt = Date.now();
    if (res.status !== 200) throw new Error(`the Worker answered ${res.status} to a ${kind} question`);
    await answered?.({ status: res.status, text }, acceptedAt - sent);
    return acceptedAt;
  };

/**
 * A person's channel message mentioning the bot, as Discord's Gateway delivers it. Its id is made here: each
 * Worker's fake Gateway counts ids of its own, the same ones, and the Workers share one Redis.
 */
function gatewayMessage(channelId: string, seq: number, content: string): object {
  return {
    id: snowflake(),
    guild_id: GUILD,
    channel_id: channelId,
    type: 0,
    content: `<@${DISCORD_FAKE_BOT.userId}> ${content}`,
    author: { id: snowflake(), username: `person${seq}`, global_name: `Person${seq}` },
    member: { nick: null, roles: [] },
    mentions: [{ id: DISCORD_FAKE_BOT.userId, username: DISCORD_FAKE_BOT.username.toLowerCase() }],
  };
}

let seq = 0;

/** `discordFakeUrl`: the Discord fake, told what the Worker answered each interaction, as Discord learns it. */
export function question(
  kind: Kind,
  mode: Mode,
  run: string,
  discord: traffic.DiscordSigner,
  discordFakeUrl: string,
): Question {
  seq += 1;
  const marker = `q${run}x${seq}`;
  // The tool kind asks for a ticket: the local model looks it up first (dev/local-model/tool-calls.ts).
  const text = `<@${traffic.SLACK_BOT_USER_ID}> ${kind === "slack_tool" ? "what is the status of ticket 42?" : "how should I cache this?"} ${marker}`;
  if (kind === "discord_interaction") {
    const interaction = askInteraction(
      { guildId: GUILD, channelId: snowflake() },
      { id: snowflake(), name: `Person${seq}` },
      `how should I cache this? ${marker}`,
    );
    const body = JSON.stringify(interaction);
    const answered = (answer: { status: number; text: string }, ms: number) =>
      reportInteractionAnswer(discordFakeUrl, body, answer, ms);
    return {
      kind,
      mode,
      marker,
      place: interaction.token,
      ask: webhook(kind, (url) => traffic.discordRequest(url, discord, body), answered),
    };
  }
  if (kind === "telegram_group" || kind === "telegram_private") {
    const chatId = telegramChat(kind, run);
    return {
      kind,
      mode,
      marker,
      place: String(chatId),
      ask: (to) => askOnTelegram(to.telegramFake, to.workerUrl, kind, chatId, `how should I cache this? ${marker}`),
    };
  }
  if (kind === "gchat_space" || kind === "gchat_dm") {
    const space = googleChatSpace(run);
    return {
      kind,
      mode,
      marker,
      place: space,
      ask: (to) => askOnGoogleChat(to.googleChatFake, to.workerUrl, kind, space, `how should I cache this? ${marker}`),
    };
  }
  if (kind === "teams_channel" || kind === "teams_dm") {
    const q: Question = {
      kind,
      mode,
      marker,
      place: "",
      ask: (to) =>
        askOnTeams(to.teamsFake, to.workerUrl, kind, (id) => (q.place = id), `how should I cache this? ${marker}`),
    };
    return q;
  }
  if (kind === "discord_gateway") {
    const channelId = snowflake();
    const message = gatewayMessage(channelId, seq, `how should I cache this? ${marker}`);
    return { kind, mode, marker, place: channelId, ask: async (to) => to.dispatch(message) };
  }
  const channel = `CL${run}${seq}`;
  const now = Date.now() / 1000;
  const ts = now.toFixed(6);
  // A thread reply answers in the thread; its parent is a message from a moment before.
  const threadTs = kind === "slack_thread" || kind === "slack_tool" ? (now - 1).toFixed(6) : undefined;
  const body = traffic.slackEvent(slackTeam(kind, mode), channel, `UPERSON${seq}`, text, ts, threadTs);
  return { kind, mode, marker, place: channel, ask: webhook(kind, (url) => traffic.slackRequest(url, body)) };
}
