/**
 * @module
 * Who has opted out of this bot's texts (STOP, or a 21610 from Twilio), per account and number, until they opt
 * back in (START). One plain key per number, under the store's prefix; it never expires, like Twilio's own list.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { optOutKey } from "../../keys.ts";

const OPTED_OUT = "1";

export class SmsOptOuts {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.redis = redis;
    this.prefix = prefix;
  }

  key(accountSid: string, number: string): string {
    return optOutKey(this.prefix, { platform: "twilio", tenant: accountSid }, number);
  }

  async isOptedOut(accountSid: string, number: string): Promise<boolean> {
    return (await this.redis.exists(this.key(accountSid, number))) === 1;
  }

  async optOut(accountSid: string, number: string): Promise<void> {
    await this.redis.set(this.key(accountSid, number), OPTED_OUT);
  }

  async optIn(accountSid: string, number: string): Promise<void> {
    await this.redis.del(this.key(accountSid, number));
  }
}
