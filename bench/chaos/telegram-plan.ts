/**
 * @module
 * bench/chaos's Telegram conversations: a group where a person mentions the bot and others talk on (recorded, not
 * answered), and a person's private chat carrying a secret that must stay there. Each chat is made in the Telegram
 * fake before its first message (the bot's answers need a chat to land in), the bot an admin (it hears all), and
 * every update goes to the Worker with the webhook's secret header.
 */
import type { Random } from "../../dev/faults/seeded-random.ts";
import { groupUpdate, TELEGRAM_BOT } from "../load/telegram-traffic.ts";
import type { Conversation, InboundMessage } from "./plan.ts";
import { toolAsk } from "./tool-asks.ts";

const CHATTER_MAX = 3;

/** One Telegram conversation of the plan; `id` its number, `tag` in each text, `word(n)` the n-th text's own word. */
export function telegramConversation(
  kind: "telegram_group" | "telegram_private",
  id: number,
  tag: string,
  word: (n: number) => string,
  secret: string,
  random: Random,
  run: string,
): Conversation {
  const chatId =
    kind === "telegram_group"
      ? -(3_000_000_000_000 + (parseInt(run.slice(1), 36) % 100_000) * 10_000 + id)
      : 50_000_000_000 + (parseInt(run.slice(1), 36) % 100_000) * 10_000 + id;
  const person = (n: number) => (kind === "telegram_private" ? chatId : 60_000_000 + id * 10 + n);
  const update = (n: number, text: string, toBot: boolean) => {
    const u = groupUpdate(chatId, n + 1, person(toBot ? 0 : 1 + (n % 3)), text, toBot) as {
      message: { chat: Record<string, unknown> };
    };
    if (kind === "telegram_private") u.message.chat = { id: chatId, type: "private", first_name: "Person" };
    return JSON.stringify(u);
  };
  const messages: InboundMessage[] = [];
  if (kind === "telegram_private") {
    messages.push({
      word: word(0),
      trigger: true,
      telegramUpdate: update(
        0,
        `${tag} ${word(0)} my locker code is ${secret}, can you keep it in mind?${toolAsk(id, tag)}`,
        true,
      ),
    });
  } else {
    messages.push({
      word: word(0),
      trigger: true,
      telegramUpdate: update(0, `${tag} ${word(0)} what do you think of plan ${id}?${toolAsk(id, tag)}`, true),
    });
    const chatter = 1 + Math.floor(random() * CHATTER_MAX);
    for (let n = 1; n <= chatter; n++)
      messages.push({
        word: word(n),
        trigger: false,
        telegramUpdate: update(n, `${tag} ${word(n)} I think step ${n} is fine`, false),
      });
  }
  return {
    id,
    kind,
    tag,
    place: { platform: "telegram", tenant: `${TELEGRAM_BOT.id}:${chatId}`, channel: String(chatId) },
    ...(kind === "telegram_private" ? { secret } : {}),
    messages,
  };
}

/**
 * Makes the conversation's chat in the Telegram fake; in a group, with the person's first message written there
 * too (not delivered: the plan delivers it), so that the bot's answer replies to a message Telegram knows, and a
 * press of its Stop carries that message (./stops.ts), as Telegram's would.
 */
export async function makeTelegramChat(fakeUrl: string, c: Conversation): Promise<void> {
  const id = Number(c.place.channel);
  const chat =
    c.kind === "telegram_private"
      ? { id, type: "private", first_name: "Person" }
      : { id, type: "supergroup", title: `Chaos ${id}`, bots: { [String(TELEGRAM_BOT.id)]: "administrator" } };
  const res = await fetch(`${fakeUrl}/__chat`, { method: "POST", body: JSON.stringify(chat) });
  if (!res.ok) throw new Error(`the Telegram fake refused chat ${id}: ${res.status} ${await res.text()}`);
  if (c.kind !== "telegram_group") return;
  const { message } = JSON.parse(c.messages[0]!.telegramUpdate!) as {
    message: { from: unknown; text: string; entities: unknown[] };
  };
  const written = { chat_id: id, from: message.from, text: message.text, entities: message.entities, deliver: false };
  const wrote = await fetch(`${fakeUrl}/__message`, { method: "POST", body: JSON.stringify(written) });
  if (!wrote.ok) throw new Error(`the Telegram fake refused a message in chat ${id}: ${wrote.status}`);
}
