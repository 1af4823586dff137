/**
 * @module
 * bench/latency's Telegram questions and what a person saw of their answers: a mention of the bot in a group of its
 * own (an edited reply as it grows; "typing…" first) and a message in a private chat (drafts, then the message).
 * Each chat is made in the Telegram fake as the question is asked; the fake's records (its clock, this machine's)
 * tell the first sign (the first "typing…"), the first text (the first draft or post) and when the answer was
 * complete (the last revision of the message that holds it).
 */
import { parseTelegramHtml } from "../../dev/fakes/telegram/html.ts";
import { longAnswer } from "../../dev/local-model/long-answer.ts";
import { TELEGRAM_MAX_MESSAGE_CHARS, telegramHtml } from "../../lib/platforms/telegram/format.ts";
import { splitText } from "../../lib/text/split.ts";
import { askWorker } from "./ask.ts";
import { groupUpdate, TELEGRAM_BOT, telegramRequest } from "../load/telegram-traffic.ts";

export type TelegramKind = "telegram_group" | "telegram_private";

let chats = 0;

/** A new chat for one question: a group's negative id, or a person's own id for a private chat. */
export function telegramChat(kind: TelegramKind, run: string): number {
  chats += 1;
  const n = (parseInt(run, 36) % 10_000) * 10_000 + chats;
  return kind === "telegram_group" ? -(2_000_000_000_000 + n) : 30_000_000_000 + n;
}

/** Makes the chat in the fake, posts the question to the Worker; when the Worker accepted it (epoch ms). */
export async function askOnTelegram(
  fakeUrl: string,
  workerUrl: string,
  kind: TelegramKind,
  chatId: number,
  text: string,
): Promise<number> {
  const chat =
    kind === "telegram_group"
      ? {
          id: chatId,
          type: "supergroup",
          title: `Latency ${chatId}`,
          bots: { [String(TELEGRAM_BOT.id)]: "administrator" },
        }
      : { id: chatId, type: "private", first_name: "Person" };
  const made = await fetch(`${fakeUrl}/__chat`, { method: "POST", body: JSON.stringify(chat) });
  if (!made.ok) throw new Error(`the Telegram fake refused chat ${chatId}`);
  const update = groupUpdate(
    chatId,
    1,
    kind === "telegram_group" ? 40_000_000 + chats : chatId,
    text,
    kind === "telegram_group",
  );
  if (kind === "telegram_private")
    Object.assign((update as { message: { chat: object } }).message.chat, { type: "private", first_name: "Person" });
  return askWorker(telegramRequest(workerUrl, update), kind);
}

interface Call {
  route: string;
  at: number;
  message_id?: number;
}
interface Message {
  from: number;
  text: string;
  revisions: { at: number }[];
}

const getJson = async <T>(url: string): Promise<T> => (await (await fetch(url)).json()) as T;

/** What the person saw of the answer in `chatId`, or null while it is not complete. */
export async function seenOnTelegram(fakeUrl: string, chatId: number, tokens: number) {
  // As the person reads it: the answer's Markdown sent as Bot API HTML, the text Telegram keeps of it.
  const parts = splitText(longAnswer(tokens), TELEGRAM_MAX_MESSAGE_CHARS).map(
    (p) => parseTelegramHtml(telegramHtml(p)).text,
  );
  const messages = (await getJson<Message[]>(`${fakeUrl}/__messages?chat_id=${chatId}`)).filter(
    (m) => m.from === TELEGRAM_BOT.id,
  );
  if (messages.length !== parts.length || !messages.every((m, i) => m.text === parts[i])) return null;
  const calls = (await getJson<Call[]>(`${fakeUrl}/__calls?chat_id=${chatId}`)).sort((a, b) => a.at - b.at);
  const typing = calls.find((c) => c.route === "sendChatAction");
  const firstText = calls.find((c) => c.route === "sendMessageDraft" || c.route === "sendMessage")!;
  const completeAt = Math.max(...messages.map((m) => m.revisions.at(-1)!.at));
  return {
    signAt: Math.min(typing?.at ?? Infinity, firstText.at),
    firstTextAt: firstText.at,
    completeAt,
    calls: calls.length,
    rateLimited: 0,
  };
}

/** Flood-control refusals the fake counted, all chats together. */
export async function telegramRefusals(fakeUrl: string): Promise<number> {
  return (await getJson<{ ratelimited: { total: number } }>(`${fakeUrl}/__stats`)).ratelimited.total;
}
