import { describe, expect, it } from "vitest";
import { adapters } from "../../lib/platforms/index.ts";

const bot = { userId: "100000000000000001", name: "Parley", aliases: [] };
const adapter = (platform: string) => adapters.find((a) => a.platform === platform)!;
const budgetTenant = (platform: string, tenant: string) =>
  adapter(platform).budgetTenant?.({ platform: platform as "discord", tenant, channel: "C1" }, bot) ?? {
    platform,
    tenant,
  };

describe("whose daily token budget an answer spends", () => {
  it("is the application's for every Discord DM, never a fresh one per person", () => {
    expect(budgetTenant("discord", "dm:230000000000000001")).toEqual({
      platform: "discord",
      tenant: `app:${bot.userId}`,
    });
    expect(budgetTenant("discord", "dm:230000000000000002")).toEqual(budgetTenant("discord", "dm:230000000000000001"));
  });

  it("is the tenant's own elsewhere: a guild, a Slack workspace (its DMs included), a Twilio account", () => {
    expect(budgetTenant("discord", "320000000000000001")).toMatchObject({ tenant: "320000000000000001" });
    expect(budgetTenant("slack", "T0ACME")).toMatchObject({ tenant: "T0ACME" });
    expect(budgetTenant("twilio", "AC1")).toMatchObject({ tenant: "AC1" });
  });
});
