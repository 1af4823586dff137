/**
 * @module
 * The simulator's Telegram: the group "Team" (a forum: its General topic and the topic "Releases") with Alice, Bob
 * and Carol and the bot (an admin, so it hears all the talk, as with privacy mode off), and each person's private
 * chat with the bot, all made in the Telegram fake at start. A person's message is written there, and the fake
 * delivers it to the Worker's webhook as Telegram does (`npm run dev` set it with `npm run telegram:set-webhook`'s
 * own code).
 */
import { TELEGRAM_FAKE_BOT } from "../fakes/telegram/bot.ts";
import { PEOPLE, TELEGRAM_GROUP, type SimulatedPerson } from "./people.ts";

/** Where on Telegram the person writes. */
export type TelegramSpot = "general" | "topic" | "private";

async function control<T>(fakeUrl: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${fakeUrl}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`the Telegram fake answered ${path} with ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const personOf = (p: SimulatedPerson) => ({ id: p.telegramUserId, first_name: p.name, username: p.handle });

/** Makes the group, its topic and the private chats; the topic's id. */
export async function readyTelegram(fakeUrl: string): Promise<number> {
  await control(fakeUrl, "/__chat", {
    id: TELEGRAM_GROUP.id,
    type: "supergroup",
    title: TELEGRAM_GROUP.title,
    is_forum: true,
    bots: { [String(TELEGRAM_FAKE_BOT.id)]: "administrator" },
  });
  for (const p of PEOPLE)
    await control(fakeUrl, "/__chat", { id: p.telegramUserId, type: "private", first_name: p.name });
  const topic = await control<{ message_thread_id: number }>(fakeUrl, "/__topic", {
    chat_id: TELEGRAM_GROUP.id,
    name: TELEGRAM_GROUP.topic,
    from: personOf(PEOPLE[0]!),
    deliver: false,
  });
  return topic.message_thread_id;
}

/** The chat (and topic) of a spot, and the admin view's key of its conversation. */
export function telegramPlace(
  spot: TelegramSpot,
  person: SimulatedPerson,
  topic: number,
): { chat: number; topic?: number; place: string } {
  const chat = spot === "private" ? person.telegramUserId : TELEGRAM_GROUP.id;
  const thread = spot === "topic" ? topic : undefined;
  return {
    chat,
    ...(thread !== undefined ? { topic: thread } : {}),
    place: `telegram|${TELEGRAM_FAKE_BOT.id}:${chat}|${chat}|${thread ?? ""}`,
  };
}

/** The person writes `text` there (`@Name` of the bot becomes its `@username`, as people type it); its message id. */
export async function sendTelegram(
  fakeUrl: string,
  botName: string,
  person: SimulatedPerson,
  text: string,
  where: { chat: number; topic?: number },
  /** A photo or document from the fake's `/__files` (./attach.ts); `text` is then its caption. */
  media?: Record<string, unknown>,
): Promise<number> {
  const typed = text.replace(new RegExp(`@${botName}\\b`, "gi"), `@${TELEGRAM_FAKE_BOT.username}`);
  const sent = await control<{ message_id: number }>(fakeUrl, "/__message", {
    chat_id: where.chat,
    from: personOf(person),
    ...(typed ? { text: typed } : {}),
    ...(media ? { media } : {}),
    ...(where.topic !== undefined ? { message_thread_id: where.topic } : {}),
  });
  return sent.message_id;
}

/**
 * The person presses a button of the bot's inline keyboard: the fake opens a callback query and sends it to the
 * Worker; what the bot answered it (answerCallbackQuery's text, an alert or a passing notice) comes back for the
 * page to show the presser, as Telegram's client does.
 */
export async function pressTelegram(
  fakeUrl: string,
  person: SimulatedPerson,
  press: { chat: number; messageId: number; id: string },
): Promise<{ status: number; note?: string }> {
  const sent = await control<{ callback_query_id: string; deliveries: { status: number }[] }>(fakeUrl, "/__press", {
    chat_id: press.chat,
    message_id: press.messageId,
    from: personOf(person),
    data: press.id,
  });
  const query = new URLSearchParams({ route: "answerCallbackQuery", callback_query_id: sent.callback_query_id });
  const answers = (await (await fetch(`${fakeUrl}/__calls?${query}`)).json()) as { text?: string }[];
  const note = answers[0]?.text;
  return { status: sent.deliveries[0]?.status ?? 0, ...(note ? { note } : {}) };
}
