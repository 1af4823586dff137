/**
 * @module
 * A press of an answer's 👍 or 👎 (./capability.ts), read from the platform's signed interaction: recorded once per
 * person and answer (./store.ts; a double click or a redelivery finds it recorded), and always answered to the
 * presser alone with thanks. A 👎 under an unprompted answer is "not you" feedback: the first press is also ingested
 * as the platform records a 👎 reaction (never answered; lib/decide/not-you.ts reads it), so that the bot stays out
 * of that person's talk for the follow-up window; any other 👎 and every 👍 count only as the answer's quality.
 */
import type { ControlPress } from "../approvals/capability.ts";
import { ingest } from "../ingest.ts";
import { FEEDBACK_THANKS } from "../notices.ts";
import type { AnyPlatformAdapter } from "../platforms/adapter.ts";
import { adapterContext } from "../platforms/context.ts";
import { botIdentity, conversationTtlSeconds, type Runtime } from "../runtime.ts";
import { readFeedbackId } from "./capability.ts";
import type { FeedbackKind } from "./store.ts";

/** The note for the presser when `press` is feedback; null for any other control (an approval's). */
export async function pressFeedback(
  rt: Runtime,
  adapter: AnyPlatformAdapter,
  press: ControlPress,
): Promise<string | null> {
  const read = readFeedbackId(press.controlId);
  if (!read) return null;
  const kind: FeedbackKind = read.verdict === "up" ? "up" : read.unprompted ? "not_you" : "down";
  const { place } = press;
  const ttl = conversationTtlSeconds(rt.settings, rt.platforms, place);
  const first = await rt.feedback.record(place, press.messageRef, press.person, kind, ttl);
  rt.log.info("feedback_pressed", {
    platform: place.platform,
    tenant: place.tenant,
    message: press.messageRef,
    kind,
    first,
  });
  if (first && kind === "not_you" && adapter.feedback) {
    const ctx = adapterContext(rt, adapter);
    // The bot's id matters only to an addressed message; feedback carries no words.
    await ingest(rt, adapter.feedback.notYou(press, rt.now()), botIdentity(rt, ""), adapter.ingestOptions(ctx.config));
  }
  return FEEDBACK_THANKS;
}
