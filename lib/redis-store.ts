/**
 * @module
 * What every store of the runtime holds (lib/stores.ts builds each once): the one Redis client and the key prefix
 * (REDIS_KEY_PREFIX) it builds its keys under with lib/keys.ts.
 */
import type { Redis } from "@upstash/redis/cloudflare";

export abstract class RedisStore {
  protected readonly redis: Redis;
  protected readonly prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.redis = redis;
    this.prefix = prefix;
  }
}
