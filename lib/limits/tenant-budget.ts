/**
 * @module
 * The daily token budgets (TENANT_DAILY_TOKEN_BUDGET, and each person's share of it, PERSON_DAILY_TOKEN_SHARE): the
 * model tokens of every call a tenant's answers and memory make (reply, judge, facts, summary), summed per UTC day.
 * A job reserves its calls' likely tokens before the first of them, in one script that also checks the tenant's
 * and the person's day (so jobs running at once see each other's reservations), and settles to what the calls
 * used after the last. A call is let through while the day is under its budget: the one that crosses it is
 * finished, never cut off. Past the tenant's budget (or the person's share) the bot says so once a day, then stays
 * quiet until the next UTC day. A DM with the bot spends its installation's budget (the platform names it), never
 * a fresh one of its own.
 */
import { personBudgetKeys, tenantBudgetKeys, type Tenancy } from "../keys.ts";
import { defineScript } from "../redis-script.ts";
import type { Redis } from "@upstash/redis/cloudflare";
import type { Settings } from "../config.ts";
import * as z from "../zod.ts";

/** The day's keys outlive the day, so that a late job of yesterday still finds its count. */
const KEEP_SECONDS = 2 * 24 * 3600;
const PERCENT = 100;

/**
 * Keys: the tenant's day and the person's day (`tenant`, `person`), and their `told` marks (`tenantTold`,
 * `personTold`). Arguments: the `tokens` to reserve, the tenant's `budget`, the person's `share`, the keys' `ttl`
 * (s). Returns {'ok'} or {'tenant'|'person', told now (1) or before (0)}.
 */
const RESERVE = defineScript({
  keys: { tenant: "key", person: "key", tenantTold: "key", personTold: "key" },
  args: z.object({ tokens: z.number(), budget: z.number(), share: z.number(), ttl: z.number() }),
  result: z.tuple([z.enum(["ok", "tenant", "person"]), z.number()]),
  lua: `
local tenant, person = tonumber(redis.call('GET', K.tenant) or '0'), tonumber(redis.call('GET', K.person) or '0')
local over = nil
if tenant >= A.budget then over = 'tenant' elseif person >= A.share then over = 'person' end
if over then
  local told = redis.call('SET', over == 'tenant' and K.tenantTold or K.personTold, '1', 'NX', 'EX', A.ttl)
  return {over, told and 1 or 0}
end
for _, key in ipairs({K.tenant, K.person}) do
  redis.call('INCRBY', key, A.tokens)
  redis.call('EXPIRE', key, A.ttl)
end
return {'ok', 0}
`,
});

type BudgetSettings = Pick<Settings, "TENANT_DAILY_TOKEN_BUDGET" | "PERSON_DAILY_TOKEN_SHARE">;

/** Whose tokens they are: the tenant whose budget they spend (its installation's, for a DM) and the person. */
export interface Spender {
  budgetTenant: Tenancy;
  person: string;
}

/** Tokens reserved for a job's calls; `settle` replaces them with what the calls used. */
interface Reservation {
  settle(used: number): Promise<void>;
}

/** A reservation, or who is past their budget and whether they are to be told now (once a day). */
export type BudgetVerdict =
  | { allowed: true; reservation: Reservation }
  | { allowed: false; over: "tenant" | "person"; notify: boolean };

const NO_BUDGET: BudgetVerdict = { allowed: true, reservation: { settle: async () => undefined } };

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The day's token counts of every tenant and person (`budget:` in lib/keys.ts), against TENANT_DAILY_TOKEN_BUDGET. */
export class TokenBudgets {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #settings: BudgetSettings;
  readonly #now: () => number;

  constructor(redis: Redis, prefix: string, settings: BudgetSettings, now: () => number) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#settings = settings;
    this.#now = now;
  }

  /** Reserves `tokens` for the spender's next model calls; no Redis at all without a budget. */
  async reserve(spender: Spender, tokens: number): Promise<BudgetVerdict> {
    const s = this.#settings;
    const budget = s.TENANT_DAILY_TOKEN_BUDGET;
    if (!budget) return NO_BUDGET;
    const day = utcDay(this.#now());
    const tenant = tenantBudgetKeys(this.#prefix, spender.budgetTenant, day);
    const person = personBudgetKeys(this.#prefix, spender.budgetTenant, spender.person, day);
    const share = Math.max(1, Math.floor((budget * s.PERSON_DAILY_TOKEN_SHARE) / PERCENT));
    const reserved = Math.max(0, Math.ceil(tokens));
    const [status, told] = await RESERVE.run(
      this.#redis,
      { tenant: tenant.used, person: person.used, tenantTold: tenant.told, personTold: person.told },
      { tokens: reserved, budget, share, ttl: KEEP_SECONDS },
    );
    if (status !== "ok") return { allowed: false, over: status, notify: told === 1 };
    const redis = this.#redis;
    return {
      allowed: true,
      reservation: {
        async settle(used) {
          const change = Math.ceil(used) - reserved;
          if (change === 0) return;
          const p = redis.pipeline();
          p.incrby(tenant.used, change);
          p.incrby(person.used, change);
          await p.exec();
        },
      },
    };
  }

  /** The admin view's figures: today's tokens, the budget, whether the tenant was told it is used. */
  async usage(where: Tenancy): Promise<{ day: string; tokens: number; budget: number | null; told: boolean }> {
    const day = utcDay(this.#now());
    const keys = tenantBudgetKeys(this.#prefix, where, day);
    const [used, told] = await this.#redis.mget<[number | null, string | null]>(keys.used, keys.told);
    return {
      day,
      tokens: Number(used ?? 0),
      budget: this.#settings.TENANT_DAILY_TOKEN_BUDGET ?? null,
      told: told !== null,
    };
  }
}
