/**
 * @module
 * The inbound traffic of bench/load: many places across the three platforms, each signed the way the platform
 * signs it. A Slack channel gets one mention (needs an answer) then chatter between people (needs none); a Discord
 * channel one /ask; an SMS sender one text; a quiet Slack channel only chatter, with no conversation to join; Telegram
 * groups the same as Slack channels (./telegram-traffic.ts); Google Chat spaces a mention, DMs a message
 * (./google-chat-traffic.ts); Teams channels a mention, 1:1 chats a message (./teams-traffic.ts). One
 * answer-needing message per answered place, so every such place expects exactly one reply, whatever order the jobs
 * run in. Each message says which kind of inbound message it is, so the bench can cost each kind on its own.
 */
import { createHmac, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { reportInteractionAnswer } from "../../dev/fakes/discord/interaction-answers.ts";
import { askInteraction, snowflake } from "../../test/support/discord.ts";
import type { PreparingFakes } from "./fake-deliveries.ts";
import { googleChatPlaces } from "./google-chat-traffic.ts";
import { teamsPlaces } from "./teams-traffic.ts";
import { slackSignedRequest } from "./slack-signed.ts";
import { telegramGroup } from "./telegram-traffic.ts";

export { SLACK_SIGNING_SECRET } from "./slack-signed.ts";
export const SLACK_BOT_USER_ID = "UBENCHBOT";
export const TWILIO_ACCOUNT_SID = "AC00000000000000000000000000000bench";
export const TWILIO_AUTH_TOKEN = "bench-twilio-auth-token";
export const TWILIO_NUMBER = "+15005550006";
export const DISCORD_APPLICATION_ID = "100000000000000001";

export type Platform = "slack" | "discord" | "twilio" | "telegram" | "google-chat" | "teams";

/**
 * A message that starts a conversation, one recorded in an active conversation, one with no conversation to join;
 * Telegram's apart (`tg_…`): each of its messages is also kept, and chatter with no conversation is `tg_kept`;
 * Google Chat's apart (`gc_…`): a mention at the top of a space, and a DM's message; Teams' (`teams_…`) the same.
 */
export type MessageKind =
  | "new_mention"
  | "active"
  | "ignored"
  | "tg_new_mention"
  | "tg_active"
  | "tg_kept"
  | "gc_new_mention"
  | "gc_dm"
  | "teams_new_mention"
  | "teams_dm";

export interface PlannedMessage {
  platform: Platform;
  kind: MessageKind;
  /** Where the reply shows up: Slack channel, Discord interaction token, SMS sender. */
  place: string;
  needsAnswer: boolean;
  /** Builds the signed request against `baseUrl` (the real or the do-nothing Worker). */
  request(baseUrl: string): Request;
  /** Writes the message in its platform's fake, which makes the delivery (Google Chat, Teams), before it is sent. */
  prepare?(fakes: PreparingFakes): Promise<void>;
  /** What the platform does with the answer (Discord: takes the interaction's acknowledgement), after it came. */
  answered?(answer: { status: number; text: string }, ms: number): Promise<void>;
}

export interface DiscordSigner {
  publicKeyHex: string;
  privateKey: KeyObject;
}

export function discordSigner(): DiscordSigner {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const x = publicKey.export({ format: "jwk" }).x!;
  return { publicKeyHex: Buffer.from(x, "base64url").toString("hex"), privateKey };
}

const nowSeconds = () => String(Math.floor(Date.now() / 1000));

/** An Events API delivery signed now; `headers` adds Slack's own, e.g. `X-Slack-Retry-Num` on a redelivery. */
export function slackRequest(baseUrl: string, body: string, headers: Record<string, string> = {}): Request {
  return slackSignedRequest(`${baseUrl}/slack/events`, body, "application/json", headers);
}

/** A channel message as Slack delivers it; with `threadTs`, a reply in that thread. */
export function slackEvent(
  team: string,
  channel: string,
  user: string,
  text: string,
  ts: string,
  threadTs?: string,
): string {
  return JSON.stringify({
    token: "legacy",
    team_id: team,
    api_app_id: "A0BENCH",
    type: "event_callback",
    event_id: `Ev${ts.replace(".", "")}`,
    event_time: Math.floor(Number(ts)),
    event: {
      type: "message",
      user,
      text,
      ts,
      channel,
      event_ts: ts,
      channel_type: "channel",
      ...(threadTs ? { thread_ts: threadTs } : {}),
    },
    authorizations: [
      { enterprise_id: null, team_id: team, user_id: SLACK_BOT_USER_ID, is_bot: true, is_enterprise_install: false },
    ],
  });
}

export function discordRequest(baseUrl: string, signer: DiscordSigner, body: string): Request {
  const ts = nowSeconds();
  const signature = sign(null, Buffer.from(ts + body), signer.privateKey).toString("hex");
  return new Request(`${baseUrl}/discord/interactions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Signature-Ed25519": signature, "X-Signature-Timestamp": ts },
    body,
  });
}

export function twilioRequest(baseUrl: string, publicBaseUrl: string, params: [string, string][]): Request {
  const signed =
    `${publicBaseUrl}/twilio/sms` +
    [...params]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => k + v)
      .join("");
  return new Request(`${baseUrl}/twilio/sms`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Twilio-Signature": createHmac("sha1", TWILIO_AUTH_TOKEN).update(signed).digest("base64"),
    },
    body: new URLSearchParams(params).toString(),
  });
}

export interface TrafficPlan {
  places: number;
  chatterPerSlackChannel: number;
  /** Slack channels where people only talk among themselves, `chatterPerSlackChannel` messages each. */
  quietSlackChannels: number;
  run: string;
  publicBaseUrl: string;
  discord: DiscordSigner;
  /** The Discord fake: told what Parley answered each interaction, as Discord learns it. */
  discordFakeUrl: string;
  /** Telegram groups where the bot is mentioned, and quiet ones (./telegram-traffic.ts); none when absent. */
  telegram?: { groups: number; quiet: number };
  /** Google Chat spaces and DMs, one message each (./google-chat-traffic.ts); none when absent. */
  googleChat?: number;
  /** Teams channels and 1:1 chats, one message each (./teams-traffic.ts); none when absent. */
  teams?: number;
}

let plans = 0;

/** Messages in sending order: places interleaved, so every platform is busy all the time. */
export function planTraffic(p: TrafficPlan): PlannedMessage[] {
  // Every plan texts from numbers of its own: a number that texted in an earlier plan would still be talking.
  const plan = ++plans;
  const perPlace: PlannedMessage[][] = [];
  const base = Math.floor(Date.now() / 1000);
  for (let i = 0; i < p.places; i++) {
    const platform: Platform = (["slack", "discord", "twilio"] as const)[i % 3]!;
    if (platform === "slack") {
      perPlace.push(slackChannel(p, `CB${p.run}${i}`, i, base, true));
    } else if (platform === "discord") {
      const interaction = askInteraction(
        { guildId: snowflake(), channelId: snowflake() },
        { id: snowflake(), name: `Person${i}` },
        `question ${i}`,
      );
      const body = JSON.stringify(interaction);
      const request = (url: string) => discordRequest(url, p.discord, body);
      const answered = (answer: { status: number; text: string }, ms: number) =>
        reportInteractionAnswer(p.discordFakeUrl, body, answer, ms);
      perPlace.push([
        { platform, kind: "new_mention", place: interaction.token, needsAnswer: true, request, answered },
      ]);
    } else {
      const from = `+1555${String(plan).padStart(2, "0")}${String(i).padStart(5, "0")}`;
      const sid = `SM${p.run}${String(i).padStart(8, "0")}`;
      const params: [string, string][] = [
        ["MessageSid", sid],
        ["SmsMessageSid", sid],
        ["AccountSid", TWILIO_ACCOUNT_SID],
        ["From", from],
        ["To", TWILIO_NUMBER],
        ["Body", `what is the answer to ${i}?`],
        ["NumMedia", "0"],
        ["NumSegments", "1"],
      ];
      const request = (url: string) => twilioRequest(url, p.publicBaseUrl, params);
      perPlace.push([{ platform, kind: "new_mention", place: from, needsAnswer: true, request }]);
    }
  }
  for (let i = 0; i < p.quietSlackChannels; i++)
    perPlace.push(slackChannel(p, `CQ${p.run}${i}`, p.places + i, base, false));
  const groups = p.telegram ? p.telegram.groups + p.telegram.quiet : 0;
  for (let i = 0; i < groups; i++)
    perPlace.push(
      telegramGroup(-(1_000_000_000_000 + plan * 100_000 + i), p.chatterPerSlackChannel, i < p.telegram!.groups),
    );
  const prepared = [
    ...googleChatPlaces(p.googleChat ?? 0, `${p.run}${plan}`),
    ...teamsPlaces(p.teams ?? 0, `${p.run}${plan}`),
  ];
  for (const m of prepared) perPlace.push([m]);
  const ordered: PlannedMessage[] = [];
  for (let round = 0; perPlace.some((m) => m.length > round); round++)
    for (const m of perPlace) if (m[round]) ordered.push(m[round]!);
  return ordered;
}

/**
 * A Slack channel's messages: with `mention`, one that addresses the bot (and states a fact, for the memory job)
 * then chatter in the conversation it starts; without, the chatter alone.
 */
function slackChannel(p: TrafficPlan, channel: string, n: number, base: number, mention: boolean): PlannedMessage[] {
  const msgs: PlannedMessage[] = [];
  for (let j = mention ? 0 : 1; j <= p.chatterPerSlackChannel; j++) {
    const ts = `${base}.${String(n * 1000 + j).padStart(6, "0")}`;
    const text =
      j === 0
        ? `<@${SLACK_BOT_USER_ID}> I'm planning step ${n}. What do you think?`
        : `<@UPEER${j % 2}> I think step ${j} is fine`;
    const body = slackEvent("TBENCH", channel, `UPERSON${j % 3}${n}`, text, ts);
    const kind = j === 0 ? "new_mention" : mention ? "active" : "ignored";
    msgs.push({
      platform: "slack",
      kind,
      place: channel,
      needsAnswer: j === 0,
      request: (url) => slackRequest(url, body),
    });
  }
  return msgs;
}
