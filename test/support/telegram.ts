/**
 * @module
 * Telegram for tests in workerd: a suite env with Telegram on, chats made in the Bot API fake (so that the bot's
 * answers have somewhere to go), people's messages written there and handed back as the update the bot would get
 * (the fake decides, privacy mode and all: nothing when the bot would get nothing), posted to the Worker with the
 * secret header as Telegram posts it (dev/signers), and what the fake saw of the bot.
 */
import { env } from "cloudflare:workers";
import { TELEGRAM_FAKE_BOT } from "../../dev/fakes/telegram/bot.ts";
import { parseTelegramHtml } from "../../dev/fakes/telegram/html.ts";
import { telegramHtml } from "../../lib/platforms/telegram/format.ts";
import { telegramHeaders } from "../../dev/signers/telegram.ts";
import { ALLOWED_UPDATES } from "../../lib/platforms/telegram/parse.ts";
import { callWorker, suiteEnv, type TestEnv } from "./worker.ts";

export const TELEGRAM_FAKE_URL = (env as unknown as Record<string, string>).TELEGRAM_API_BASE_URL!;
export const TELEGRAM_SECRET = "test-telegram-webhook-secret";
export const BOT = TELEGRAM_FAKE_BOT;
const WEBHOOK_PATH = "/telegram/webhook";

export interface Person {
  id: number;
  first_name: string;
  username?: string;
}

/** A suite env with Telegram switched on (the shared bindings leave it off, as a fresh deployment has it). */
export function telegramSuiteEnv(suite: string, overrides: TestEnv = {}): TestEnv {
  return suiteEnv(suite, {
    TELEGRAM_BOT_TOKEN: BOT.token,
    TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
    TELEGRAM_BOT_USERNAME: BOT.username,
    // A chat's kept talk (off in the other suites: vitest.config.ts).
    BACKFILL_MESSAGES: "30",
    ...overrides,
  });
}

let seq = 0;
const unique = () => (Date.now() % 1_000_000_000) * 100 + (seq++ % 100);

/** People no other test uses (their ids are their private chats' ids). */
export function newPerson(first_name: string): Person {
  return { id: 10_000_000_000 + unique(), first_name, username: `${first_name.toLowerCase()}${seq}` };
}

async function control<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${TELEGRAM_FAKE_URL}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`telegram fake ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A group (a supergroup, a forum with `forum`), or a person's private chat with the bot; its chat id. */
export async function newChat(kind: {
  group?: { forum?: boolean; admin?: boolean; username?: string };
  privateWith?: Person;
}): Promise<number> {
  if (kind.privateWith) {
    const p = kind.privateWith;
    await control("/__chat", { id: p.id, type: "private", first_name: p.first_name });
    return p.id;
  }
  const id = -(1_000_000_000_000 + unique());
  const g = kind.group ?? {};
  await control("/__chat", {
    id,
    type: "supergroup",
    title: `Group ${id}`,
    ...(g.username ? { username: g.username } : {}),
    ...(g.forum ? { is_forum: true } : {}),
    ...(g.admin ? { bots: { [String(BOT.id)]: "administrator" } } : {}),
  });
  return id;
}

/** Opens a forum topic; its `message_thread_id`. */
export async function newTopic(chatId: number, name: string, from: Person): Promise<number> {
  return (await control<{ message_thread_id: number }>("/__topic", { chat_id: chatId, name, from, deliver: false }))
    .message_thread_id;
}

type Update = Record<string, unknown>;
interface Deliveries {
  deliveries: { bot: number; update?: Update }[];
}

/** The update the bot gets for what was done, or undefined when it gets none (privacy mode). */
const forBot = (done: Deliveries) => done.deliveries.find((d) => d.bot === BOT.id)?.update;

/** `from` writes `text` in the chat; the message's id and the update the bot gets. */
export async function say(
  chatId: number,
  from: Person,
  text: string,
  opts: {
    topic?: number;
    replyTo?: number /** A photo or document from the fake's `/__files`; `text` is its caption ("" for none). */;
    media?: unknown;
  } = {},
): Promise<{ messageId: number; update?: Update }> {
  const done = await control<Deliveries & { message_id: number }>("/__message", {
    chat_id: chatId,
    from,
    ...(text ? { text } : {}),
    ...(opts.media ? { media: opts.media } : {}),
    deliver: false,
    ...(opts.topic !== undefined ? { message_thread_id: opts.topic } : {}),
    ...(opts.replyTo !== undefined ? { reply_to_message_id: opts.replyTo } : {}),
  });
  return { messageId: done.message_id, ...(forBot(done) ? { update: forBot(done)! } : {}) };
}

/**
 * The bot's webhook as `npm run telegram:set-webhook` sets it, with the updates Parley asks for (reactions are sent
 * only to a bot that asks): its URL is never called, since tests post the updates to the Worker themselves.
 */
async function webhookAsDeployed(): Promise<void> {
  const res = await fetch(`${TELEGRAM_FAKE_URL}/bot${BOT.token}/setWebhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      url: "http://127.0.0.1:9/telegram/webhook",
      secret_token: TELEGRAM_SECRET,
      allowed_updates: [...ALLOWED_UPDATES],
    }),
  });
  if (!res.ok) throw new Error(`setWebhook: ${res.status} ${await res.text()}`);
}

/** `user` reacts to a message (`null` takes the reaction away); the update the bot gets (admins only). */
export async function react(
  chatId: number,
  messageId: number,
  user: Person,
  emoji: string | null,
): Promise<Update | undefined> {
  await webhookAsDeployed();
  return forBot(
    await control<Deliveries>("/__reaction", { chat_id: chatId, message_id: messageId, user, emoji, deliver: false }),
  );
}

/** `from` presses the button with `data` on the bot's message; the `callback_query` update the bot gets. */
export async function pressButton(chatId: number, messageId: number, from: Person, data: string): Promise<Update> {
  await webhookAsDeployed();
  return forBot(
    await control<Deliveries>("/__press", { chat_id: chatId, message_id: messageId, from, data, deliver: false }),
  )!;
}

/** The bot's status in the chat changes (`left`, `kicked`: removed); the `my_chat_member` update. */
export async function setBotStatus(
  chatId: number,
  status: "member" | "administrator" | "left" | "kicked",
  by: Person,
): Promise<Update> {
  return forBot(
    await control<Deliveries>("/__member", { chat_id: chatId, bot_id: BOT.id, status, from: by, deliver: false }),
  )!;
}

/** Posts an update to the Worker as Telegram does (`secret` replaces the secret header's value; null leaves it out). */
export function telegramRequest(update: unknown, secret: string | null = TELEGRAM_SECRET): Request {
  const headers = secret === null ? { "Content-Type": "application/json" } : telegramHeaders(secret);
  return new Request(`https://worker.test${WEBHOOK_PATH}`, { method: "POST", headers, body: JSON.stringify(update) });
}

export async function deliver(testEnv: TestEnv, update: unknown): Promise<Response> {
  return callWorker(testEnv, telegramRequest(update));
}

/** What a chat shows of an answer the model wrote as `markdown` (the HTML the bot sends, read as Telegram reads it). */
export const shownText = (markdown: string): string => parseTelegramHtml(telegramHtml(markdown)).text;

export interface SeenMessage {
  message_id: number;
  chat_id: number;
  thread?: number;
  from: number;
  text: string;
  reply_to?: number;
  revisions: { at: number; method: string; chars: number }[];
  reactions: Record<string, string[]>;
  /** The inline keyboard it shows, as last sent or edited. */
  reply_markup?: { inline_keyboard: { text: string; callback_data: string }[][] };
}

/** The chat's messages in the fake, the bot's (`fromBot`) or everyone's. */
export async function chatMessages(chatId: number, fromBot = true): Promise<SeenMessage[]> {
  const all = (await (await fetch(`${TELEGRAM_FAKE_URL}/__messages?chat_id=${chatId}`)).json()) as SeenMessage[];
  return all.filter((m) => !fromBot || m.from === BOT.id);
}

/** The bot's calls the fake recorded for a chat (sendChatAction, sendMessageDraft, …), in order. */
export async function botCalls(chatId: number, route?: string): Promise<Record<string, unknown>[]> {
  const query = new URLSearchParams({ chat_id: String(chatId), ...(route ? { route } : {}) });
  return (await (await fetch(`${TELEGRAM_FAKE_URL}/__calls?${query}`)).json()) as Record<string, unknown>[];
}
