/**
 * @module
 * The bot's Telegram posts as the page shows them, read from the Telegram fake: its messages as they stand now (a
 * group's answer grows by edits of one message) and, while an answer is written in a private chat, its draft (a
 * pending entry, gone once the message came or the draft faded), each drawn from its text and the entities the
 * fake read from the bot's HTML (./views/telegram-view.ts), with the buttons of its inline keyboard; and the
 * reactions on every message (the bot's working sign on a person's message).
 */
import { z } from "zod";
import { TELEGRAM_FAKE_BOT } from "../fakes/telegram/bot.ts";
import { PEOPLE, TELEGRAM_GROUP } from "./people.ts";
import type { Reaction, Timeline } from "./timeline.ts";
import { telegramView } from "./views/telegram-view.ts";

const entities = z
  .array(z.looseObject({ type: z.string(), offset: z.number(), length: z.number(), url: z.string().optional() }))
  .default([]);
const chatMessage = z.looseObject({
  message_id: z.number(),
  chat_id: z.number(),
  from: z.number(),
  thread: z.number().optional(),
  text: z.string().default(""),
  entities,
  /** Its inline keyboard, as the bot last sent or edited it. */
  reply_markup: z
    .looseObject({
      inline_keyboard: z.array(z.array(z.looseObject({ text: z.string(), callback_data: z.string().optional() }))),
    })
    .optional(),
  /** By user id: the emoji each put on it. */
  reactions: z.record(z.string(), z.array(z.string())).default({}),
});
const draft = z.looseObject({
  chat_id: z.number(),
  draft_id: z.number(),
  text: z.string(),
  entities,
  until: z.number(),
});

async function read<T extends z.ZodType>(url: string, schema: T): Promise<z.output<T>[]> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return z.array(schema).parse(await res.json());
}

export async function collectTelegramPosts(timeline: Timeline, fakeUrl: string, botName: string): Promise<void> {
  const [messages, drafts] = await Promise.all([
    read(`${fakeUrl}/__messages`, chatMessage),
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
    const view = telegramView(d.text, d.entities);
    if (d.until <= now) timeline.remove(id);
    else if (shown) Object.assign(shown, { text: d.text, view });
    else if (!timeline.forgot(id))
      timeline.add({ ...entry(d.chat_id, undefined), id, text: d.text, view, pending: true });
  }
  for (const m of messages) {
    const id = `${m.chat_id}:${m.message_id}`;
    const shown = timeline.entries.find((e) => e.id === id);
    const reactions = reactionsOf(m.reactions, botName);
    // A person's message shows as it was typed; its reactions are Telegram's.
    if (m.from !== TELEGRAM_FAKE_BOT.id) {
      if (shown) shown.reactions = reactions;
      continue;
    }
    const view = telegramView(m.text, m.entities);
    const controls = (m.reply_markup?.inline_keyboard.flat() ?? []).flatMap((b) =>
      b.callback_data ? [{ id: b.callback_data, label: b.text }] : [],
    );
    if (shown) Object.assign(shown, { text: m.text, view, reactions, controls });
    else if (!timeline.forgot(id))
      timeline.add({
        ...entry(m.chat_id, m.thread),
        id,
        messageId: String(m.message_id),
        text: m.text,
        view,
        reactions,
        controls,
      });
  }
}

/** Telegram lists reactions per person: the page shows them per emoji, with who put each. */
function reactionsOf(byUser: Record<string, string[]>, botName: string): Reaction[] {
  const shown = new Map<string, string[]>();
  for (const [user, emoji] of Object.entries(byUser)) {
    const name =
      Number(user) === TELEGRAM_FAKE_BOT.id
        ? botName
        : (PEOPLE.find((p) => p.telegramUserId === Number(user))?.name ?? user);
    for (const e of emoji) shown.set(e, [...(shown.get(e) ?? []), name]);
  }
  return [...shown].map(([emoji, by]) => ({ emoji, by }));
}
