/**
 * The daily token budgets' reservations against a real Redis (the REST bridge): jobs reserving at the same time see
 * each other's reservations, so a tenant's day is not overspent by however many jobs run at once, and a settled
 * reservation counts what the calls used.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, inject, it } from "vitest";
import { parseSettings } from "../../lib/config.ts";
import { TokenBudgets } from "../../lib/limits/tenant-budget.ts";
import { MINIMAL_SETTINGS } from "../support/settings.ts";

const settings = parseSettings({
  ...MINIMAL_SETTINGS,
  REDIS_KEY_PREFIX: `t-tokens-${Date.now()}`,
  TENANT_DAILY_TOKEN_BUDGET: "1000",
  PERSON_DAILY_TOKEN_SHARE: "50",
});
const budgets = new TokenBudgets(
  new Redis({ url: inject("redisRestUrl"), token: inject("redisRestToken") }),
  settings.REDIS_KEY_PREFIX,
  settings,
  Date.now,
);

describe("reserving tokens against a day's budget", () => {
  it("lets parallel jobs through only while their reservations are under the budget", async () => {
    const where = { platform: "slack" as const, tenant: "TPARALLEL" };
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => budgets.reserve({ budgetTenant: where, person: `U${i}` }, 300)),
    );
    // 0, 300, 600, 900 are under 1,000: four jobs, not twenty.
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(4);
    expect(verdicts.filter((v) => !v.allowed && v.notify)).toHaveLength(1);
    expect((await budgets.usage(where)).tokens).toBe(1200);
  });

  it("settles a reservation to what the calls used, for the tenant and the person", async () => {
    const where = { platform: "slack" as const, tenant: "TSETTLE" };
    const first = await budgets.reserve({ budgetTenant: where, person: "UONE" }, 400);
    if (!first.allowed) throw new Error("the first reservation is within the budget");
    await first.reservation.settle(120);
    expect((await budgets.usage(where)).tokens).toBe(120);
    // The person's share is 500: 120 used, so a second reservation passes, a third (at 520) does not.
    const second = await budgets.reserve({ budgetTenant: where, person: "UONE" }, 400);
    expect(second.allowed).toBe(true);
    expect(await budgets.reserve({ budgetTenant: where, person: "UONE" }, 10)).toMatchObject({
      allowed: false,
      over: "person",
    });
    expect((await budgets.reserve({ budgetTenant: where, person: "UTWO" }, 10)).allowed).toBe(true);
  });
});
