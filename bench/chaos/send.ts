/**
 * @module
 * Delivers the planned messages the way each platform does: Slack tries again up to 3 times (with
 * `X-Slack-Retry-Num`) when an event is not acknowledged with a 2xx, and sometimes retries an acknowledged one
 * later, but never an interaction (a button's press); Telegram repeats a delivery that got anything but a 2xx ("and
 * gives up after a reasonable amount of attempts": 3 more here); Discord and Twilio never deliver again, and neither
 * does Google Chat (its guides name no redelivery of an event: the person sees that the app did not respond), so a
 * webhook they saw fail was not accepted; nor does Teams here (its Connector's retries of an activity that got no
 * 2xx are not simulated). A message counts as accepted once any delivery of it got a 2xx. A Google Chat or Teams
 * message is written in the fake when its turn comes, and only what the platform sends the bot of it is delivered.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Random } from "../../dev/faults/seeded-random.ts";
import { reportInteractionAnswer } from "../../dev/fakes/discord/interaction-answers.ts";
import { INITIAL_RESPONSE_MS } from "../../dev/fakes/discord/interactions.ts";
import type { HeldDelivery } from "../load/fake-deliveries.ts";
import { slackPressRequest } from "../load/presses.ts";
import { telegramRequest } from "../load/telegram-traffic.ts";
import * as traffic from "../load/traffic.ts";
import { googleChatWriter } from "./google-chat-plan.ts";
import type { Conversation, InboundMessage } from "./plan.ts";
import { teamsWriter } from "./teams-plan.ts";
import { makeTelegramChat } from "./telegram-plan.ts";

const SLACK_RETRIES = 3;
/** Real time between Slack's tries: enough for the Worker to finish the failed one. */
const SLACK_RETRY_PAUSE_MS = 200;
const CONCURRENT_CONVERSATIONS = 6;

export interface Sender {
  parleyUrl: string;
  /** PUBLIC_BASE_URL: what Twilio signs. */
  publicBaseUrl: string;
  discord: traffic.DiscordSigner;
  /** The Discord fake: told what Parley answered each interaction, as Discord learns it. */
  discordFake: string;
  /** The Slack fake's control base: a thread's parent is a message people wrote in Slack before the thread. */
  slackControl: string;
  /** The Discord Gateway fake's control origin: an asker's reaction is dispatched there. */
  discordGateway: string;
  /** The Twilio fake: what was texted (an approval question is answered by a text back). */
  twilioFake: string;
  /** The Telegram fake: a conversation's chat is made there before its first message. */
  telegramFake: string;
  /** The Google Chat fake: a conversation's space is made there, and people write in it. */
  googleChatFake: string;
  /** The Teams fake: the same for a channel or 1:1 chat. */
  teamsFake: string;
}

/** A platform whose fake makes the deliveries (Google Chat, Teams): a conversation's place, and its lines. */
export interface Writer {
  open(s: Sender, c: Conversation): Promise<void>;
  /** Writes `m` (a reply in `thread` when given): what the platform sends the bot of it, and where the answer goes. */
  write(s: Sender, c: Conversation, m: InboundMessage, thread?: string): Promise<WrittenLine>;
  request(baseUrl: string, delivery: HeldDelivery): Request;
}

type WrittenLine = { thread?: string; delivery: HeldDelivery | null };

/** One webhook delivery the bench sent: when, of which message (its word), its answer's status, its retry. */
export interface Delivery {
  at: number;
  word: string;
  status: number;
  retry?: number;
}

export interface SendStats {
  deliveries: number;
  /** Answers per status (0: the connection failed, or a Discord interaction was answered too late). */
  statuses: Map<number, number>;
  /** Every delivery, for the trace of a broken promise (./trace.ts). */
  sent: Delivery[];
}

export function newSendStats(): SendStats {
  return { deliveries: 0, statuses: new Map(), sent: [] };
}

function request(s: Sender, m: InboundMessage, retry?: { num: number; reason: string }): Request {
  if (m.slackBody !== undefined) {
    const headers: Record<string, string> = retry
      ? { "X-Slack-Retry-Num": String(retry.num), "X-Slack-Retry-Reason": retry.reason }
      : {};
    return traffic.slackRequest(s.parleyUrl, m.slackBody, headers);
  }
  if (m.slackPress !== undefined) return slackPressRequest(s.parleyUrl, m.slackPress);
  if (m.discordBody !== undefined) return traffic.discordRequest(s.parleyUrl, s.discord, m.discordBody);
  if (m.telegramUpdate !== undefined) return telegramRequest(s.parleyUrl, JSON.parse(m.telegramUpdate));
  if (m.written !== undefined) return m.written.request(s.parleyUrl, m.written.delivery);
  return traffic.twilioRequest(s.parleyUrl, s.publicBaseUrl, m.twilioParams!);
}

export async function deliver(
  s: Sender,
  stats: SendStats,
  m: InboundMessage,
  retry?: { num: number; reason: string },
): Promise<number> {
  stats.deliveries++;
  let status = 0;
  const at = Date.now();
  try {
    const sent = Date.now();
    const res = await fetch(request(s, m, retry));
    const text = await res.text();
    status = res.status;
    if (m.discordBody !== undefined) {
      const afterMs = Date.now() - sent;
      await reportInteractionAnswer(s.discordFake, m.discordBody, { status, text }, afterMs);
      // Past 3 s Discord shows the person that the app did not respond and voids the token: nothing was accepted.
      // (A loaded machine gets there: seed 42 counted such a DM unanswered.)
      if (afterMs > INITIAL_RESPONSE_MS) status = 0;
    }
    await m.answered?.(status, text);
  } catch {
    status = 0;
  }
  stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
  stats.sent.push({ at, word: m.word, status, ...(retry ? { retry: retry.num } : {}) });
  return status;
}

const ok = (status: number) => status >= 200 && status < 300;

/** Delivers one message as its platform would; answers whether it was accepted. */
export async function deliverAsPlatform(s: Sender, stats: SendStats, m: InboundMessage): Promise<boolean> {
  if (ok(await deliver(s, stats, m))) return true;
  if (m.slackBody === undefined && m.telegramUpdate === undefined) return false;
  for (let num = 1; num <= SLACK_RETRIES; num++) {
    await sleep(SLACK_RETRY_PAUSE_MS);
    if (ok(await deliver(s, stats, m, { num, reason: "http_error" }))) return true;
  }
  return false;
}

/** Words of the accepted messages; Slack messages drawn for a late retry (redelivered after time passed). */
export interface Sent {
  accepted: Set<string>;
  lateRetries: InboundMessage[];
}

/**
 * Each conversation's messages in order (a message is sent once the one before it was answered, as people type),
 * several conversations at a time. After a trigger that was not accepted, its conversation says nothing more.
 */
export async function sendConversations(
  s: Sender,
  stats: SendStats,
  conversations: readonly Conversation[],
  lateRetryRate: number,
  random: Random,
): Promise<Sent> {
  const sent: Sent = { accepted: new Set(), lateRetries: [] };
  for (const c of conversations)
    for (const m of c.messages) if (m.slackBody !== undefined && random() < lateRetryRate) sent.lateRetries.push(m);
  const queue = [...conversations];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const writer = WRITERS[c.place.platform];
      if (writer) {
        await sendWritten(s, stats, c, sent.accepted, writer);
        continue;
      }
      if (c.place.thread) await startThread(s, c.place.tenant, c.place.channel, c.place.thread);
      if (c.place.platform === "telegram") await makeTelegramChat(s.telegramFake, c);
      for (const m of c.messages) {
        const accepted = await deliverAsPlatform(s, stats, m);
        if (accepted) sent.accepted.add(m.word);
        else if (m.trigger) break;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_CONVERSATIONS }, worker));
  return sent;
}

const WRITERS: Partial<Record<Conversation["place"]["platform"], Writer>> = {
  "google-chat": googleChatWriter,
  teams: teamsWriter,
};

/**
 * A conversation on a platform whose fake makes the deliveries: its place made, each line written as the person
 * would, and what the platform sends the bot of it delivered; the place learns the answer's thread from the trigger.
 */
async function sendWritten(s: Sender, stats: SendStats, c: Conversation, accepted: Set<string>, writer: Writer) {
  await writer.open(s, c);
  let first: string | undefined;
  for (const m of c.messages) {
    const written = await writer.write(s, c, m, m.reply ? first : undefined);
    first ??= written.thread;
    if (m.trigger && written.thread) c.place.thread = written.thread;
    if (!written.delivery) continue;
    m.written = { delivery: written.delivery, request: writer.request };
    if (await deliverAsPlatform(s, stats, m)) accepted.add(m.word);
    else if (m.trigger) return;
  }
}

/** The thread's first message, as someone posted it in the team's Slack (the bot looks threads up by it). */
async function startThread(s: Sender, team: string, channel: string, ts: string): Promise<void> {
  const res = await fetch(`${s.slackControl}/__messages`, {
    method: "POST",
    body: JSON.stringify({ team, channel, ts, user: "UTHREADSTARTER", text: "a thread" }),
  });
  if (!res.ok) throw new Error(`starting a thread at the Slack fake failed: ${res.status} ${await res.text()}`);
}

/** Slack's late retries: the same events again, after the Worker had answered them (Slack did not hear it in time). */
export async function sendLateRetries(s: Sender, stats: SendStats, messages: readonly InboundMessage[]): Promise<void> {
  for (const m of messages) await deliver(s, stats, m, { num: 1, reason: "http_timeout" });
}
