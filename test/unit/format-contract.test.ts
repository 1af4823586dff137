/**
 * @module
 * The answer format every platform's adapter owns (lib/platforms/answer-format.ts), checked the same way for each
 * adapter in lib/platforms/index.ts, so that a platform added later is held to it too: every shared model output
 * (test/support/model-outputs.ts) renders without throwing into something to show, in the markup the platform
 * names, and a part as long as the platform's message takes never renders longer than one message.
 */
import { describe, expect, it } from "vitest";
import type { Platform, ReplyTarget } from "../../lib/message.ts";
import { adapters } from "../../lib/platforms/index.ts";
import { MODEL_OUTPUTS } from "../support/model-outputs.ts";

/** A reply target of each kind per platform: the compiler asks for a new platform's. */
const TARGETS: Record<Platform, ReplyTarget[]> = {
  slack: [{ platform: "slack", channel: "C0CHAN001", threadTs: "1715000000.000100" }],
  discord: [
    { platform: "discord", kind: "channel", channelId: "81384788765712385" },
    { platform: "discord", kind: "interaction", applicationId: "1", token: "t", expiresAt: 0 },
  ],
  twilio: [
    { platform: "twilio", accountSid: "AC1", to: "+15558675310", from: "+15005550006" },
    { platform: "twilio", accountSid: "AC1", to: "whatsapp:+15558675310", from: "whatsapp:+15005550006" },
  ],
  telegram: [{ platform: "telegram", chatId: 1, chatType: "private" }],
  "google-chat": [
    { platform: "google-chat", space: "spaces/AAAAAAAAAAA", thread: "spaces/AAAAAAAAAAA/threads/t1", dm: false },
  ],
  teams: [
    {
      platform: "teams",
      serviceUrl: "https://smba.trafficmanager.net/amer/",
      conversationId: "19:abc@thread.tacv2;messageid=1481567603816",
      replyToId: "1481567603816",
      personal: false,
    },
  ],
};

/** The longest text one message of the platform takes, as its markup is counted there. */
const LIMITS: Record<Platform, { chars: number; shown: (rendered: string) => number }> = {
  slack: { chars: 12_000, shown: (r) => r.length },
  discord: { chars: 2_000, shown: (r) => r.length },
  "google-chat": { chars: 4_000, shown: (r) => r.length },
  teams: { chars: 8_000, shown: (r) => r.length },
  twilio: { chars: 1_600, shown: (r) => r.length },
  telegram: {
    chars: 4_096,
    shown: (r) => r.replace(/<[^>]*>/g, "").replace(/&(?:lt|gt|amp|quot);/g, "_").length,
  },
};

describe.each(adapters.map((a) => [a.platform, a] as const))("%s's answer format", (platform, adapter) => {
  it.each(Object.entries(MODEL_OUTPUTS))("renders %s into something to show", (_name, markdown) => {
    for (const target of TARGETS[platform]) {
      const parsed = adapter.replyTargetSchema.parse(target);
      const rendered = adapter.format.render(markdown, parsed);
      expect(rendered.trim()).not.toBe("");
      expect(adapter.format.markup(parsed)).toMatch(/^[a-z_]+$/);
    }
  });

  it("keeps a whole part within one message, whatever its markup adds", () => {
    const { chars, shown } = LIMITS[platform];
    const part = "| <a> | **b** & c |\n|---|---|\n".repeat(Math.floor(chars / 30)).slice(0, 2_000);
    for (const target of TARGETS[platform]) {
      const rendered = adapter.format.render(part, adapter.replyTargetSchema.parse(target));
      expect(shown(rendered)).toBeLessThanOrEqual(chars);
    }
  });
});
