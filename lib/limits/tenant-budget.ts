/**
 * @module
 * The per-tenant daily token budget (TENANT_DAILY_TOKEN_BUDGET): the model tokens of a tenant's answers, as the
 * model's usage figures count them, summed per UTC day. Checked in the job before any model call; past the
 * budget the tenant is told once that the day's allowance is used, and the bot stays quiet until the next UTC day.
 * An answer in flight when the budget runs out is finished: the check comes before the call, the count after it.
 */
import { tenantBudgetKeys } from "../keys.ts";
import { jobLogFields } from "../log-ids.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";
import type { ReplyAllowance } from "./reply-rate.ts";

export const BUDGET_NOTICE = "The daily allowance for answers here is used up; I'll answer again tomorrow (UTC).";
/** The day's keys outlive the day, so that a late job of yesterday still finds its count. */
const KEEP_SECONDS = 2 * 24 * 3600;

function keysFor(rt: Runtime, job: Job): { used: string; told: string } {
  return tenantBudgetKeys(rt.settings.REDIS_KEY_PREFIX, job.key, new Date(rt.now()).toISOString().slice(0, 10));
}

export async function checkTenantBudget(rt: Runtime, job: Job): Promise<ReplyAllowance> {
  const budget = rt.settings.TENANT_DAILY_TOKEN_BUDGET;
  if (!budget) return "allowed";
  const keys = keysFor(rt, job);
  if (Number((await rt.redis.get<number>(keys.used)) ?? 0) < budget) return "allowed";
  // One notice per tenant and day: the first job past the budget wins the key.
  const first = await rt.redis.set(keys.told, "1", { nx: true, ex: KEEP_SECONDS });
  rt.log.info("tenant_over_budget", { ...(await jobLogFields(rt, job)), notice: first === "OK" });
  return first === "OK" ? "notify" : "quiet";
}

/** Adds the tokens an answer's model calls used to the tenant's day. */
export async function spendTenantBudget(rt: Runtime, job: Job, tokens: number): Promise<void> {
  if (!rt.settings.TENANT_DAILY_TOKEN_BUDGET || tokens <= 0) return;
  const { used } = keysFor(rt, job);
  const p = rt.redis.pipeline();
  p.incrby(used, tokens);
  p.expire(used, KEEP_SECONDS);
  await p.exec();
}
