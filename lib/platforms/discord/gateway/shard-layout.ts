/**
 * @module
 * How many Gateway shards run, and how a change of that number happens without losing a message. Discord says how
 * many shards a bot needs (`GET /gateway/bot`: `shards`, `session_start_limit.max_concurrency`) and closes a
 * connection holding too many guilds with 4011. The coordinator (run by the cron every minute) keeps the layout in
 * use, asks Discord again every `checkIntervalMs` (at once after a 4011), and wakes every shard of the layout.
 *
 * A reshard runs the new layout beside the old one: Discord delivers a guild's events to its shard in every live
 * session, so while both run a message arrives twice and the ingest's seen mark drops the second copy. Only when
 * every new shard is READY are the old ones retired, so no moment is left without a shard for a guild.
 */

import { errorMessage, type Logger } from "../../../log.ts";
import * as z from "../../../zod.ts";
import { discordRequest } from "../rest.ts";
import type { ShardTuple } from "./session-io.ts";
import type { GatewayStatus } from "./status.ts";

/** Discord closes a connection with this when it would hold more than 2,500 guilds (sharding required). */
const SHARDING_REQUIRED_CLOSE_CODE = 4011;
/** How often Discord's recommendation is asked again; a change of the count then reshards. */
const SHARD_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export interface ShardLayout {
  count: number;
  maxConcurrency: number;
}

export interface ShardLayoutState {
  active: ShardLayout | null;
  /** A layout being started beside the active one; it takes over once all its shards are READY. */
  next: ShardLayout | null;
  checkedAt: number;
  /** A shard was closed with 4011: ask Discord on the next tick rather than after the interval. */
  checkDue?: boolean;
}

/** A shard's Durable Object, as the coordinator reaches it. */
export interface ShardDirectory {
  /** Starts (or keeps) the shard's connection; its status, or null when Discord is not configured. */
  ensure(shard: ShardTuple, maxConcurrency: number): Promise<GatewayStatus | null>;
  /** Ends the shard's session for good: a new layout took over. */
  retire(shard: ShardTuple): Promise<void>;
}

export interface ShardCoordinatorOptions {
  load(): Promise<ShardLayoutState | undefined>;
  save(state: ShardLayoutState): Promise<void>;
  /** Discord's recommendation (`GET /gateway/bot`). */
  recommend(): Promise<ShardLayout>;
  shards: ShardDirectory;
  log: Logger;
  now?: () => number;
  checkIntervalMs?: number;
}

export const gatewayBotSchema = z.looseObject({
  shards: z.number().check(z.int(), z.positive()),
  session_start_limit: z.looseObject({ max_concurrency: z.number().check(z.int(), z.positive()) }),
});

/** Asks Discord how many shards the bot should run and how many may IDENTIFY at once. */
export async function fetchGatewayBot(args: {
  apiBaseUrl: string;
  botToken: string;
  fetch?: typeof fetch;
}): Promise<ShardLayout> {
  const body = gatewayBotSchema.parse(
    await discordRequest({
      apiBaseUrl: args.apiBaseUrl,
      method: "GET",
      path: "/gateway/bot",
      what: "get the Gateway's shard count",
      botToken: args.botToken,
      ...(args.fetch ? { fetch: args.fetch } : {}),
    }),
  );
  return { count: body.shards, maxConcurrency: body.session_start_limit.max_concurrency };
}

function shardsOf(layout: ShardLayout): ShardTuple[] {
  return Array.from({ length: layout.count }, (_, id): ShardTuple => [id, layout.count]);
}

export class ShardCoordinator {
  #opts: ShardCoordinatorOptions;

  constructor(opts: ShardCoordinatorOptions) {
    this.#opts = opts;
  }

  /** One cron tick: maybe ask Discord again, wake every shard, and finish a reshard whose new shards are all READY. */
  async tick(): Promise<ShardLayoutState> {
    const { log, shards } = this.#opts;
    const now = (this.#opts.now ?? Date.now)();
    const state = (await this.#opts.load()) ?? { active: null, next: null, checkedAt: 0 };
    if (!state.active) await this.#check(state, now);
    else if (state.checkDue || now - state.checkedAt >= (this.#opts.checkIntervalMs ?? SHARD_CHECK_INTERVAL_MS)) {
      // Discord unreachable for a moment: the layout in use keeps running, and the next tick asks again.
      await this.#check(state, now).catch((err: unknown) =>
        log.warn("discord_gateway_bot_failed", { message: errorMessage(err) }),
      );
    }
    const active = state.active!;
    const statuses = await Promise.all(shardsOf(active).map((shard) => shards.ensure(shard, active.maxConcurrency)));
    // Too many guilds for the layout: ask Discord again on the next tick rather than in an hour.
    state.checkDue = statuses.some((s) => s?.fatalCloseCode === SHARDING_REQUIRED_CLOSE_CODE);
    const next = state.next;
    if (next) {
      const starting = await Promise.all(shardsOf(next).map((shard) => shards.ensure(shard, next.maxConcurrency)));
      if (starting.every((s) => s?.phase === "ready")) {
        await Promise.all(shardsOf(active).map((shard) => shards.retire(shard)));
        log.info("discord_gateway_resharded", { from: active.count, to: next.count });
        state.active = next;
        state.next = null;
      }
    }
    await this.#opts.save(state);
    return state;
  }

  async #check(state: ShardLayoutState, now: number): Promise<void> {
    const recommended = await this.#opts.recommend();
    state.checkedAt = now;
    if (!state.active) {
      state.active = recommended;
      this.#opts.log.info("discord_gateway_layout", {
        shards: recommended.count,
        max_concurrency: recommended.maxConcurrency,
      });
    } else if (recommended.count === state.active.count) {
      // Back to the count in use (or unchanged): any half-started layout is dropped.
      if (state.next) await Promise.all(shardsOf(state.next).map((shard) => this.#opts.shards.retire(shard)));
      state.active = recommended;
      state.next = null;
    } else if (state.next?.count !== recommended.count) {
      if (state.next) await Promise.all(shardsOf(state.next).map((shard) => this.#opts.shards.retire(shard)));
      state.next = recommended;
      this.#opts.log.info("discord_gateway_resharding", { from: state.active.count, to: recommended.count });
    }
  }
}
