/**
 * @module
 * The Telegram traffic of bench/load (and bench/chaos, bench/latency): groups where a person mentions the bot, then
 * people talk among themselves in the conversation it starts; quiet groups where people only talk, which Parley
 * keeps (IngestOptions.keepHistory) and never answers. Each group is made in the Telegram fake first (the bot's
 * answers need a chat to land in), as an admin so that it would hear everything; updates are posted to the Worker
 * with the webhook's secret header, as Telegram posts them.
 */
import { TELEGRAM_FAKE_BOT } from "../../dev/fakes/telegram.ts";
import { telegramHeaders } from "../../dev/signers/telegram.ts";
import type { MessageKind, PlannedMessage } from "./traffic.ts";

export const TELEGRAM_SECRET = "bench-telegram-webhook-secret";
export const TELEGRAM_BOT = TELEGRAM_FAKE_BOT;

/** The Worker's Telegram settings for a bench. */
export function telegramVars(fakeUrl: string): Record<string, string> {
  return {
    TELEGRAM_BOT_TOKEN: TELEGRAM_BOT.token,
    TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
    TELEGRAM_BOT_USERNAME: TELEGRAM_BOT.username,
    TELEGRAM_API_BASE_URL: fakeUrl,
  };
}

export function telegramRequest(baseUrl: string, update: unknown): Request {
  return new Request(`${baseUrl}/telegram/webhook`, {
    method: "POST",
    headers: telegramHeaders(TELEGRAM_SECRET),
    body: JSON.stringify(update),
  });
}

let updates = 0;

/** A person's text in a group, as the update the bot gets; `toBot` mentions it, else it mentions another person. */
export function groupUpdate(chatId: number, messageId: number, person: number, text: string, toBot: boolean): object {
  const handle = toBot ? `@${TELEGRAM_BOT.username}` : `@peer_${person % 2}x`;
  const full = `${handle} ${text}`;
  return {
    update_id: ++updates,
    message: {
      message_id: messageId,
      from: { id: person, is_bot: false, first_name: `Person${person}` },
      chat: { id: chatId, type: "supergroup", title: `Bench ${chatId}` },
      date: Math.floor(Date.now() / 1000),
      text: full,
      entities: [{ type: "mention", offset: 0, length: handle.length }],
    },
  };
}

/**
 * A group's messages: with `mention`, one that addresses the bot, then `chatter` in the conversation it starts;
 * without, the chatter alone (kept, never answered). The place is the chat id, as the fake records the answers.
 */
export function telegramGroup(chatId: number, chatter: number, mention: boolean): PlannedMessage[] {
  const msgs: PlannedMessage[] = [];
  for (let j = mention ? 0 : 1; j <= chatter; j++) {
    const person = 20_000_000 + (Math.abs(chatId) % 100_000) * 10 + (j % 3);
    const update =
      j === 0
        ? groupUpdate(chatId, j + 1, person, "I'm planning the release. What do you think?", true)
        : groupUpdate(chatId, j + 1, person, `I think step ${j} is fine`, false);
    const kind: MessageKind = j === 0 ? "tg_new_mention" : mention ? "tg_active" : "tg_kept";
    msgs.push({
      platform: "telegram",
      kind,
      place: String(chatId),
      needsAnswer: j === 0,
      request: (url) => telegramRequest(url, update),
    });
  }
  return msgs;
}

/** Makes the groups of the planned Telegram messages in the fake, the bot an admin of each. */
export async function makeTelegramChats(fakeUrl: string, messages: readonly PlannedMessage[]): Promise<void> {
  const chats = new Set(messages.filter((m) => m.platform === "telegram").map((m) => Number(m.place)));
  for (const id of chats) {
    const res = await fetch(`${fakeUrl}/__chat`, {
      method: "POST",
      body: JSON.stringify({
        id,
        type: "supergroup",
        title: `Bench ${id}`,
        bots: { [String(TELEGRAM_BOT.id)]: "administrator" },
      }),
    });
    if (!res.ok) throw new Error(`the Telegram fake refused chat ${id}: ${res.status}`);
  }
}
