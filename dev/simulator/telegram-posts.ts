/**
 * @module
 * The bot's Telegram posts as the page shows them, read from the Telegram fake: its messages as they stand now (a
 * group's answer grows by edits of one message) and, while an answer is written in a private chat, its draft (a
 * pending entry, gone once the message came or the draft faded).
 */
import { z } from "zod";
import { TELEGRAM_FAKE_BOT } from "../fakes/telegram/bot.ts";
import { TELEGRAM_GROUP } from "./people.ts";
import type { Timeline } from "./timeline.ts";

const botMessage = z.looseObject({
  message_id: z.number(),
  chat_id: z.number(),
  thread: z.number().optional(),
  text: z.string().default(""),
});
const draft = z.looseObject({ chat_id: z.number(), draft_id: z.number(), text: z.string(), until: z.number() });

async function read<T extends z.ZodType>(url: string, schema: T): Promise<z.output<T>[]> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return z.array(schema).parse(await res.json());
}

export async function collectTelegramPosts(timeline: Timeline, fakeUrl: string, botName: string): Promise<void> {
  const [messages, drafts] = await Promise.all([
    read(`${fakeUrl}/__messages?from=${TELEGRAM_FAKE_BOT.id}`, botMessage),
    read(`${fakeUrl}/__drafts`, draft),
  ]);
  const now = Date.now();
  const entry = (chat: number, thread: number | undefined) => {
    const spot =
      chat !== TELEGRAM_GROUP.id
        ? ("private" as const)
        : thread !== undefined
          ? ("topic" as const)
          : ("general" as const);
    return {
      platform: "telegram" as const,
      author: botName,
      bot: true,
      at: now,
      channel: String(chat),
      spot,
      place: `telegram|${TELEGRAM_FAKE_BOT.id}:${chat}|${chat}|${thread ?? ""}`,
    };
  };
  for (const d of drafts) {
    const id = `draft:${d.chat_id}:${d.draft_id}`;
    const shown = timeline.entries.find((e) => e.id === id);
    if (d.until <= now) timeline.remove(id);
    else if (shown) shown.text = d.text;
    else if (!timeline.forgot(id)) timeline.add({ ...entry(d.chat_id, undefined), id, text: d.text, pending: true });
  }
  for (const m of messages) {
    const id = `${m.chat_id}:${m.message_id}`;
    const shown = timeline.entries.find((e) => e.id === id);
    if (shown) shown.text = m.text;
    else if (!timeline.forgot(id))
      timeline.add({ ...entry(m.chat_id, m.thread), id, messageId: String(m.message_id), text: m.text });
  }
}
