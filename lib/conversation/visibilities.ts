/**
 * @module
 * Who can read a place whose messages did not say (a Discord server channel), as the platform told a job, cached
 * for an hour per place (`visibility:` in lib/keys.ts): the reply job's claim reads it in its own round trip
 * (./claim-scripts.ts), other jobs here (lib/jobs/visibility.ts).
 */
import { RedisStore } from "../redis-store.ts";
import { visibilityKey } from "../keys.ts";
import { VISIBILITIES, type ConversationKey, type Visibility } from "../message.ts";

/** A channel's permissions rarely change; an hour bounds how long a change goes unseen. */
const CACHE_SECONDS = 3_600;

export class PlaceVisibilities extends RedisStore {
  /** What the platform said last hour; undefined when nothing (or nothing valid) is cached. */
  async cached(key: ConversationKey): Promise<Visibility | undefined> {
    const cached = await this.redis.get<string>(visibilityKey(this.prefix, key));
    return VISIBILITIES.find((v) => v === cached);
  }

  async remember(key: ConversationKey, visibility: Visibility): Promise<void> {
    await this.redis.set(visibilityKey(this.prefix, key), visibility, { ex: CACHE_SECONDS });
  }
}
