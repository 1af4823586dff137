/**
 * @module
 * Marks that something was said or logged once in a while, each one SET NX with its TTL: the first caller in the
 * window gets true and says it, every later one gets false. The reply rate limit's notice (once per window), a
 * history refusal's log line (once per place per hour), and the note that the bot cannot see images (once per
 * conversation).
 */
import { RedisStore } from "../redis-store.ts";
import { historyRefusedKey, imagesUnseenKey, rateLimitNoticeKey } from "../keys.ts";
import type { ConversationKey } from "../message.ts";

/** A refusal is logged at most this often per place. */
const REFUSAL_LOGGED_SECONDS = 3_600;
/** Long enough to outlive any conversation; a new conversation's id is a new key. */
const IMAGES_TOLD_SECONDS = 24 * 60 * 60;

export class ToldOnce extends RedisStore {
  /** The person over the reply rate limit is to be told now (once until the window ends, `seconds` from now). */
  async replyRateNotice(person: string, seconds: number): Promise<boolean> {
    return this.#first(rateLimitNoticeKey(this.prefix, person), seconds);
  }

  /** The platform's refusal to read the place is to be logged now (once per place per hour). */
  async historyRefusal(key: ConversationKey): Promise<boolean> {
    return this.#first(historyRefusedKey(this.prefix, key), REFUSAL_LOGGED_SECONDS);
  }

  /** The conversation is to be told now that the bot cannot see its images (once per conversation). */
  async imagesUnseen(key: ConversationKey, conversationId: string): Promise<boolean> {
    return this.#first(imagesUnseenKey(this.prefix, key, conversationId), IMAGES_TOLD_SECONDS);
  }

  async #first(key: string, seconds: number): Promise<boolean> {
    return (await this.redis.set(key, "1", { nx: true, ex: seconds })) === "OK";
  }
}
