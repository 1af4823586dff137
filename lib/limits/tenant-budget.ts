/**
 * @module
 * The per-tenant daily token budget (TENANT_DAILY_TOKEN_BUDGET): the model tokens of a tenant's answers, as the
 * model's usage figures count them, summed per UTC day. Checked in the job before any model call; past the
 * budget the tenant is told once that the day's allowance is used, and the bot stays quiet until the next UTC day.
 * An answer in flight when the budget runs out is finished: the check comes before the call, the count after it.
 */
import { tenantBudgetKeys, type Tenancy } from "../keys.ts";
import { jobLogFields } from "../log-ids.ts";
import type { Job } from "../queue/job.ts";
import type { Services } from "../services.ts";
import type { ReplyAllowance } from "./reply-rate.ts";

/** The day's keys outlive the day, so that a late job of yesterday still finds its count. */
const KEEP_SECONDS = 2 * 24 * 3600;

function keysFor(rt: Services, where: Tenancy): { used: string; told: string } {
  return tenantBudgetKeys(rt.settings.REDIS_KEY_PREFIX, where, utcDay(rt.now()));
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The admin view's figures: today's tokens, the budget, whether the tenant was told it is used. */
export async function tenantUsage(rt: Services, where: Tenancy): Promise<{ day: string; tokens: number; budget: number | null; told: boolean }> {
  const keys = keysFor(rt, where);
  const [used, told] = await rt.redis.mget<[number | null, string | null]>(keys.used, keys.told);
  return { day: utcDay(rt.now()), tokens: Number(used ?? 0), budget: rt.settings.TENANT_DAILY_TOKEN_BUDGET ?? null, told: told !== null };
}

export async function checkTenantBudget(rt: Services, job: Job): Promise<ReplyAllowance> {
  const budget = rt.settings.TENANT_DAILY_TOKEN_BUDGET;
  if (!budget) return "allowed";
  const keys = keysFor(rt, job.key);
  if (Number((await rt.redis.get<number>(keys.used)) ?? 0) < budget) return "allowed";
  // One notice per tenant and day: the first job past the budget wins the key.
  const first = await rt.redis.set(keys.told, "1", { nx: true, ex: KEEP_SECONDS });
  rt.log.info("tenant_over_budget", { ...(await jobLogFields(rt, job)), notice: first === "OK" });
  return first === "OK" ? "notify" : "quiet";
}

/** Adds the tokens an answer's model calls used to the tenant's day. */
export async function spendTenantBudget(rt: Services, job: Job, tokens: number): Promise<void> {
  if (!rt.settings.TENANT_DAILY_TOKEN_BUDGET || tokens <= 0) return;
  const { used } = keysFor(rt, job.key);
  const p = rt.redis.pipeline();
  p.incrby(used, tokens);
  p.expire(used, KEEP_SECONDS);
  await p.exec();
}
