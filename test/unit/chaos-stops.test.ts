import { describe, expect, it } from "vitest";
import { seededRandom } from "../../dev/faults/seeded-random.ts";
import { planConversations } from "../../bench/chaos/plan.ts";
import { pickStopCases } from "../../bench/chaos/stops.ts";

const triggerText = (body: string) => {
  const parsed = JSON.parse(body) as {
    event?: { text: string };
    data?: { options: { value: string }[] };
    message?: { text: string };
  };
  return parsed.event?.text ?? parsed.data?.options[0]?.value ?? parsed.message?.text ?? "";
};

describe("bench/chaos's Stop cases", () => {
  it("slow down up to two answers a platform that grow with a Stop button, none that asks for a tool", () => {
    const conversations = planConversations(80, seededRandom(7), "RSTOP");
    const before = JSON.stringify(conversations.map((c) => c.messages.slice(1)));
    const cases = pickStopCases(conversations);
    const platforms = cases.map((k) => k.c.place.platform);
    for (const platform of ["slack", "discord", "telegram"]) {
      expect(platforms.filter((p) => p === platform).length).toBeGreaterThan(0);
      expect(platforms.filter((p) => p === platform).length).toBeLessThanOrEqual(2);
    }
    for (const { c } of cases) {
      expect(["slack_channel", "discord_guild", "discord_dm", "telegram_group"]).toContain(c.kind);
      const m = c.messages[0]!;
      const text = triggerText(m.slackBody ?? m.discordBody ?? m.telegramUpdate!);
      expect(text).toContain(c.tag);
      expect(text).toMatch(/\[\[local-model tps=\d+ first_ms=100\]\]$/);
      expect(text).not.toMatch(/lookup_ticket|please file it as ticket-/);
    }
    // Only the triggers change: the rest of the plan (and its seed's replay) stays as it was.
    expect(JSON.stringify(conversations.map((c) => c.messages.slice(1)))).toBe(before);
  });
});
