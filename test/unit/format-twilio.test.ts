/**
 * @module
 * SMS and WhatsApp answers from the shared model outputs (test/support/model-outputs.ts). An SMS shows no markup
 * at all, so it gets plain text, GSM-7 wherever the model wrote GSM-7 (a mark never costs a segment); WhatsApp shows
 * its own marks (faq.whatsapp.com "How to format your messages": *bold*, _italic_, ~strikethrough~, `code`,
 * ```monospace```, > quotes, - and 1. lists). Both within Twilio's 1,600 characters of Body.
 */
import { describe, expect, it } from "vitest";
import { renderSnapshot } from "../../lib/platforms/answer-format.ts";
import { twilioFormat } from "../../lib/platforms/twilio/format.ts";
import { countSmsSegments, SMS_MAX_BODY_CHARS } from "../../lib/platforms/twilio/sms-text.ts";
import type { TwilioTarget } from "../../lib/platforms/twilio/target.ts";
import { MID_STREAM, MODEL_OUTPUTS, type MidStream, type ModelOutput } from "../support/model-outputs.ts";

const sms: TwilioTarget = { platform: "twilio", accountSid: "AC1", to: "+15558675310", from: "+15005550006" };
const whatsapp: TwilioTarget = { ...sms, to: "whatsapp:+15558675310", from: "whatsapp:+15005550006" };

const SMS: Record<ModelOutput, string> = {
  heading: "Rollback plan\n\nStop the deploy first.",
  deepHeading: "Step 2\n\nRevert the merge.",
  bold: "Rollback plan: stop the deploy, then revert.",
  italicAndStrike: "That was probably the cache, not the database.",
  lists: "Steps:\n\n1. Stop the deploy\n2. Revert main\n  - check the logs\n- [ ] tell ops\n- [x] page on-call",
  code: "Run this:\n\ngit revert HEAD && git push",
  links:
    "See the runbook (https://example.com/runbook?a=1&b=2), the status page (https://example.com/status) or " +
    "https://example.com/docs_v2.",
  table: "Step: Revert, Owner: Bob\nStep: Verify, Owner: Carol",
  emoji: "Deployed 🎉 all green ✅",
  quote: "> The deploy is paused.\n\nAgreed.",
  rule: "Before\n\nAfter",
  markupLookalikes: "<!channel> a < b & c > d, @alice wrote <b>not a tag</b>",
  plainWords: "Use snake_case and 2 * 3 * 4 = 24, ~5 minutes.",
};

const WHATSAPP: Record<ModelOutput, string> = {
  heading: "*Rollback plan*\n\nStop the deploy first.",
  deepHeading: "*Step 2*\n\nRevert the merge.",
  bold: "*Rollback plan*: stop the deploy, then revert.",
  italicAndStrike: "That was _probably_ the cache, ~not~ the database.",
  lists: "Steps:\n\n1. Stop the deploy\n2. Revert `main`\n  - check _the_ logs\n- [ ] tell ops\n- [x] page on-call",
  code: "Run this:\n\n```\ngit revert HEAD && git push\n```",
  links:
    "See the runbook (https://example.com/runbook?a=1&b=2), the status page (https://example.com/status) or " +
    "https://example.com/docs_v2.",
  table: "```\nStep    Owner\n------  -----\nRevert  Bob\nVerify  Carol\n```",
  emoji: "Deployed 🎉 all green ✅",
  quote: "> The deploy is paused.\n\nAgreed.",
  rule: "Before\n\nAfter",
  markupLookalikes: "<!channel> a < b & c > d, @alice wrote <b>not a tag</b>",
  plainWords: "Use snake_case and 2 * 3 * 4 = 24, ~5 minutes.",
};

const MID_STREAM_SMS: Record<MidStream, string> = {
  openBold: "Rollback plan for the ne",
  loneMark: "",
  openFence: "Run this:\n\ngit revert",
  openCode: "Run npm",
};

describe("an SMS from the model's Markdown", () => {
  it.each(Object.entries(SMS))("%s", (name, expected) => {
    const text = twilioFormat.render(MODEL_OUTPUTS[name as ModelOutput], sms);
    expect(text).toBe(expected);
    expect(text.length).toBeLessThanOrEqual(SMS_MAX_BODY_CHARS);
    if (name !== "emoji") expect(countSmsSegments(text).encoding).toBe("GSM-7");
  });

  it.each(Object.entries(MID_STREAM_SMS))("a snapshot, were one shown: %s", (name, expected) => {
    expect(renderSnapshot(twilioFormat, MID_STREAM[name as MidStream], sms)).toBe(expected);
  });
});

describe("a WhatsApp message from the model's Markdown", () => {
  it.each(Object.entries(WHATSAPP))("%s", (name, expected) => {
    const text = twilioFormat.render(MODEL_OUTPUTS[name as ModelOutput], whatsapp);
    expect(text).toBe(expected);
    expect(text.length).toBeLessThanOrEqual(SMS_MAX_BODY_CHARS);
    expect(twilioFormat.markup(whatsapp)).toBe("whatsapp_text");
  });
});
