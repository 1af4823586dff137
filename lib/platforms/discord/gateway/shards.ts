/**
 * @module
 * How many Gateway connections the bot needs, from `GET /gateway/bot` (Discord's recommended shard count and
 * `max_concurrency`), and when each may IDENTIFY: shards share a rate-limit bucket (`shard_id % max_concurrency`)
 * that allows one IDENTIFY per 5 s, so the shards of one bucket are started 5 s apart, the buckets side by side.
 */
import * as z from "zod";
import type { ShardTuple } from "./session.ts";

/** Discord: one IDENTIFY per rate-limit bucket every 5 seconds. */
export const IDENTIFY_SPACING_MS = 5_000;

const gatewayBotSchema = z.looseObject({
  shards: z.number().int().positive(),
  session_start_limit: z.looseObject({ max_concurrency: z.number().int().positive() }),
});

export interface GatewayBot {
  shards: number;
  maxConcurrency: number;
}

/** `GET /gateway/bot` with the bot token. */
export async function fetchGatewayBot(apiBaseUrl: string, token: string, doFetch: typeof fetch = fetch): Promise<GatewayBot> {
  const res = await doFetch(`${apiBaseUrl}/gateway/bot`, { headers: { Authorization: `Bot ${token}` }, signal: AbortSignal.timeout(10_000) });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`Discord GET /gateway/bot answered HTTP ${res.status}`);
  }
  const parsed = gatewayBotSchema.parse(await res.json());
  return { shards: parsed.shards, maxConcurrency: parsed.session_start_limit.max_concurrency };
}

/** The shards in the order they may identify: each group of `maxConcurrency` shards may start together. */
export function identifyGroups(bot: GatewayBot): ShardTuple[][] {
  const groups: ShardTuple[][] = [];
  for (let id = 0; id < bot.shards; id++) (groups[Math.floor(id / bot.maxConcurrency)] ??= []).push([id, bot.shards]);
  return groups;
}
