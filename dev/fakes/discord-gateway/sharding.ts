/**
 * @module
 * The guilds the Gateway fake's bot is in and how Discord spreads them over shards: a guild's events go to shard
 * `(guild_id >> 22) % shard_count`, DMs to shard 0; a connection that would hold more guilds than the threshold
 * (Discord: 2,500) is closed with 4011 "Sharding required"; `GET /gateway/bot` recommends a shard count (by default
 * one per 1,000 guilds, as Discord roughly does) and tells `max_concurrency` and the IDENTIFYs left today.
 */
import { z } from "zod";
import { DISCORD_EPOCH_MS } from "../discord/ids.ts";

const IDENTIFY_BUDGET = 1_000;
const DAY_MS = 86_400_000;
const GUILDS_PER_RECOMMENDED_SHARD = 1_000;

export const shardingSettingsSchema = z.strictObject({
  /** Guilds per connection above which IDENTIFY is refused with 4011. */
  threshold: z.number().int().positive(),
  /** What `GET /gateway/bot` recommends; null = one shard per 1,000 guilds. */
  recommendedShards: z.number().int().positive().nullable(),
  maxConcurrency: z.number().int().positive(),
  /** Refuse (op 9, d:false) a second IDENTIFY in the same concurrency bucket within `identifyIntervalMs`, as
   *  Discord does. Off by default: clients that re-identify at once after an invalid session would be refused. */
  enforceIdentifyConcurrency: z.boolean(),
  identifyIntervalMs: z.number().int().positive(),
  /**
   * The privileged intents switched on for the app in the developer portal (a bitfield of GUILD_MEMBERS 1<<1,
   * GUILD_PRESENCES 1<<8, MESSAGE_CONTENT 1<<15): asking for another closes the connection with 4014.
   */
  enabledPrivilegedIntents: z.number().int().min(0),
  /** How late HELLO comes on the n-th connection since the reset (Discord's node may be slow to greet). */
  helloDelaysMs: z.array(z.number().int().min(0)),
});
export type ShardingSettings = z.output<typeof shardingSettingsSchema>;
/** MESSAGE_CONTENT enabled, as the README's setup says to; the other privileged intents off, as for a new app. */
export const DEFAULT_SHARDING: ShardingSettings = {
  threshold: 2_500,
  recommendedShards: null,
  maxConcurrency: 1,
  enforceIdentifyConcurrency: false,
  identifyIntervalMs: 5_000,
  enabledPrivilegedIntents: 1 << 15,
  helloDelaysMs: [],
};

export type ShardTuple = [id: number, count: number];

/** Which shard of `count` receives the guild's events. */
export function shardOf(guildId: string | undefined, count: number): number {
  if (!guildId || !/^\d+$/.test(guildId)) return 0;
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

/** `count` guild ids created a millisecond apart, so that they spread evenly over any number of shards. */
export function newGuildIds(count: number, now = Date.now()): string[] {
  const base = BigInt(now) - DISCORD_EPOCH_MS - BigInt(count);
  return Array.from({ length: count }, (_, i) => String((base + BigInt(i)) << 22n));
}

export class Guilds {
  #ids = new Set<string>();
  #identifies: number[] = [];
  #lastIdentifyByBucket = new Map<number, number>();

  set(ids: string[]): void {
    this.#ids = new Set(ids);
  }

  add(id: string): void {
    this.#ids.add(id);
  }

  remove(id: string): boolean {
    return this.#ids.delete(id);
  }

  all(): string[] {
    return [...this.#ids];
  }

  ofShard([id, count]: ShardTuple): string[] {
    return this.all().filter((guild) => shardOf(guild, count) === id);
  }

  /** Counts an IDENTIFY; false when the concurrency bucket was used too recently (and enforcement is on). */
  identify(shard: ShardTuple, settings: ShardingSettings, now = Date.now()): boolean {
    const bucket = shard[0] % settings.maxConcurrency;
    const last = this.#lastIdentifyByBucket.get(bucket);
    if (settings.enforceIdentifyConcurrency && last !== undefined && now - last < settings.identifyIntervalMs)
      return false;
    this.#lastIdentifyByBucket.set(bucket, now);
    this.#identifies.push(now);
    return true;
  }

  /** `GET /gateway/bot`'s answer, without `url` (the REST fake adds it). */
  gatewayBot(settings: ShardingSettings, now = Date.now()): Record<string, unknown> {
    this.#identifies = this.#identifies.filter((at) => now - at < DAY_MS);
    const oldest = this.#identifies[0];
    return {
      shards: settings.recommendedShards ?? Math.max(1, Math.ceil(this.#ids.size / GUILDS_PER_RECOMMENDED_SHARD)),
      session_start_limit: {
        total: IDENTIFY_BUDGET,
        remaining: Math.max(0, IDENTIFY_BUDGET - this.#identifies.length),
        reset_after: oldest === undefined ? DAY_MS : oldest + DAY_MS - now,
        max_concurrency: settings.maxConcurrency,
      },
    };
  }

  reset(): void {
    this.#ids.clear();
    this.#identifies = [];
    this.#lastIdentifyByBucket.clear();
  }
}
