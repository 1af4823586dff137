/**
 * @module
 * Who asked not to be messaged by the bot (SMS STOP, or Twilio refusing a send with 21610), per platform, tenant
 * and person, until they opt back in (START). One plain key per person (lib/keys.ts); it never expires, like the
 * carriers' own lists. The inbound flow reads it inside the ingest script; the job reads it once before answering.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { optOutKey, type Tenancy } from "./keys.ts";
import type { Consent } from "./message.ts";

const OPTED_OUT = "1";

export class OptOuts {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.redis = redis;
    this.prefix = prefix;
  }

  #key(where: Tenancy, person: string): string {
    return optOutKey(this.prefix, where, person);
  }

  async isOptedOut(where: Tenancy, person: string): Promise<boolean> {
    return (await this.redis.exists(this.#key(where, person))) === 1;
  }

  async record(where: Tenancy, person: string, consent: Consent): Promise<void> {
    if (consent === "opt_out") await this.redis.set(this.#key(where, person), OPTED_OUT);
    else await this.redis.del(this.#key(where, person));
  }
}
