/**
 * @module
 * Telegram's flood control as the fake applies it, from the Bot FAQ: "in a single chat, avoid sending more than
 * one message per second. We may allow short bursts that go over this limit, but eventually you'll begin receiving
 * 429 errors. In a group, bots are not able to send more than 20 messages per minute. For bulk notifications, bots
 * are not able to broadcast more than about 30 messages per second." Edits count as messages (grammY's notes:
 * edits are limited at least as strictly; Telegram documents no figure of its own for them). Drafts, chat actions
 * and reactions have no documented limit: drafts get one of their own per chat (a preview a second, with bursts),
 * the others none. Over a limit: 429 with `retry_after`, the whole seconds until the window frees a place.
 */
import { RateLimiter, type LimitRule } from "../rate-limit.ts";
import { tooManyRequests, type BotApiError } from "./errors.ts";
import type { FakeChat } from "./world.ts";

export interface TelegramLimits {
  enabled: boolean;
  /** A burst of 3 in 3 s: one a second, with a short burst over it. */
  perChat: LimitRule;
  perGroup: LimitRule;
  perBot: LimitRule;
  drafts: LimitRule;
}

export const DEFAULT_LIMITS: TelegramLimits = {
  enabled: true,
  perChat: { limit: 3, windowMs: 3_000 },
  perGroup: { limit: 20, windowMs: 60_000 },
  perBot: { limit: 30, windowMs: 1_000 },
  drafts: { limit: 5, windowMs: 5_000 },
};

/** Methods that post or change a message a chat's members see (its inline keyboard too). */
const MESSAGE_METHODS: ReadonlySet<string> = new Set(["sendMessage", "editMessageText", "editMessageReplyMarkup"]);

export class FloodControl {
  readonly #limiter = new RateLimiter();

  /** Counts the call; the 429 to answer when a limit is spent, else undefined. */
  check(
    limits: TelegramLimits,
    botId: number,
    method: string,
    chat: FakeChat,
    now = Date.now(),
  ): BotApiError | undefined {
    if (!limits.enabled) return undefined;
    const rules: [string, LimitRule][] = [];
    if (method === "sendMessageDraft") rules.push([`draft:${botId}:${chat.id}`, limits.drafts]);
    if (MESSAGE_METHODS.has(method)) {
      rules.push([`bot:${botId}`, limits.perBot], [`chat:${botId}:${chat.id}`, limits.perChat]);
      if (chat.type !== "private") rules.push([`group:${botId}:${chat.id}`, limits.perGroup]);
    }
    for (const [key, rule] of rules) {
      const verdict = this.#limiter.hit(key, rule, method, now);
      if (!verdict.allowed) return tooManyRequests(Math.max(1, Math.ceil(verdict.resetAfterMs / 1000)));
    }
    return undefined;
  }

  refusals() {
    return this.#limiter.refusals();
  }

  reset(): void {
    this.#limiter.reset();
  }
}
