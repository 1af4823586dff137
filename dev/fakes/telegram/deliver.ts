/**
 * @module
 * How an update reaches a bot, as Telegram sends it: only when the bot would get it, and only to the webhook its
 * `setWebhook` set, with `X-Telegram-Bot-Api-Secret-Token` when it gave one. What a bot in a group gets depends on
 * privacy mode (core.telegram.org/bots/features#privacy-mode; BotFather's /setprivacy): in privacy mode, only
 * commands meant for it (`/cmd@bot`, or a bare `/cmd` when it was the last bot to speak there), messages that
 * mention it by username, replies to its messages, and service messages; an admin bot, or one whose privacy mode is
 * off, gets everything. `allowed_updates` filters by kind; unset (or empty) it is every kind but `chat_member`,
 * `message_reaction` and `message_reaction_count`, which must be asked for (and reactions reach admins only).
 */
import type { FakeBot, FakeChat, FakeMessage } from "./world.ts";

/** The webhook's answer to one delivery, or what went wrong. */
export interface Delivery {
  update_id: number;
  bot: number;
  kind: string;
  status: number | "unreachable" | "not_delivered";
  at: number;
  /** The update itself, when it was not posted (`deliver: false`). */
  update?: Record<string, unknown>;
}

const ASKED_FOR_ONLY: ReadonlySet<string> = new Set(["chat_member", "message_reaction", "message_reaction_count"]);
const DELIVERY_TIMEOUT_MS = 30_000;

function wantsKind(bot: FakeBot, kind: string): boolean {
  const allowed = bot.webhook?.allowedUpdates;
  return allowed && allowed.length > 0 ? allowed.includes(kind) : !ASKED_FOR_ONLY.has(kind);
}

/** Whether the bot, as it is in the chat, gets this message (privacy mode). */
export function receivesMessage(
  bot: FakeBot,
  chat: FakeChat,
  message: FakeMessage,
  replied: FakeMessage | undefined,
): boolean {
  const status = chat.bots.get(bot.id);
  if (status !== "member" && status !== "administrator") return false;
  if (chat.type === "private" || status === "administrator" || !bot.privacyMode || message.service !== undefined)
    return true;
  const text = message.text ?? "";
  const own = bot.username.toLowerCase();
  for (const entity of (message.entities ?? []) as { type: string; offset: number; length: number }[]) {
    const token = text.slice(entity.offset, entity.offset + entity.length).toLowerCase();
    if (entity.type === "mention" && token === `@${own}`) return true;
    if (entity.type === "bot_command") {
      const to = token.split("@")[1];
      if (to === own || (to === undefined && chat.lastBot === bot.id)) return true;
    }
  }
  return replied !== undefined && replied.from.id === bot.id;
}

/** The update as the bot's webhook gets it (its update ids count per bot). */
function buildUpdate(bot: FakeBot, kind: string, payload: unknown): { update_id: number } & Record<string, unknown> {
  return { update_id: bot.nextUpdateId++, [kind]: payload };
}

/**
 * Posts the update to the bot's webhook; the status the webhook answered. With `deliver` false (tests that call the
 * Worker themselves), it is only built, and handed back with the delivery.
 */
export async function postUpdate(bot: FakeBot, kind: string, payload: unknown, deliver = true): Promise<Delivery> {
  const update = buildUpdate(bot, kind, payload);
  const at = Date.now();
  const base = { update_id: update.update_id, bot: bot.id, kind, at };
  if (!wantsKind(bot, kind)) return { ...base, status: "not_delivered" };
  if (!deliver) return { ...base, status: "not_delivered", update };
  if (!bot.webhook) return { ...base, status: "not_delivered" };
  try {
    const response = await fetch(bot.webhook.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        ...(bot.webhook.secretToken ? { "X-Telegram-Bot-Api-Secret-Token": bot.webhook.secretToken } : {}),
      },
      body: JSON.stringify(update),
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { ...base, status: response.status };
  } catch {
    return { ...base, status: "unreachable" };
  }
}
