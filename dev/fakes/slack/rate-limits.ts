/**
 * @module
 * Which bucket a Slack Web API call counts against: per method per workspace by the method's tier (Tier 2 20/min,
 * Tier 3 50/min, Tier 4 100/min), chat.postMessage per channel (about one a second, with a short burst); auth.test
 * and oauth.v2.access ("special", hundreds a minute) are not limited. Slack answers a refused call with HTTP 429
 * `{"ok":false,"error":"ratelimited"}` and `Retry-After` in whole seconds.
 */
import type { LimitRule } from "../rate-limit.ts";
import { TIER, type SlackSettings } from "./settings.ts";

const METHOD_TIERS: Readonly<Record<string, number>> = {
  "chat.update": TIER.t3,
  "chat.postEphemeral": TIER.t4,
  "chat.startStream": TIER.t2,
  "chat.appendStream": TIER.t4,
  "chat.stopStream": TIER.t2,
  "reactions.add": TIER.t3,
  "reactions.remove": TIER.t2,
  // Slack says "special" without a number; Tier 4 is the cautious reading (setSuggestedPrompts/setTitle are Tier 4).
  "assistant.threads.setStatus": TIER.t4,
  "assistant.threads.setSuggestedPrompts": TIER.t4,
  "assistant.threads.setTitle": TIER.t4,
  "conversations.history": TIER.t3,
  "conversations.replies": TIER.t3,
};
const POST_MESSAGE = "chat.postMessage";

/** The bucket of this call, or undefined when the method is not limited (or limits are off). */
export function slackBucket(
  settings: SlackSettings,
  method: string,
  teamId: string,
  channel: string,
): { key: string; rule: LimitRule } | undefined {
  const limits = settings.rateLimits;
  if (!limits.enabled) return undefined;
  const key = method === POST_MESSAGE ? `${method}|${teamId}|${channel}` : `${method}|${teamId}`;
  const override = limits.methods[method];
  if (override) return { key, rule: { limit: override.limit, windowMs: override.windowMs ?? limits.windowMs } };
  if (method === POST_MESSAGE) {
    const channelRule = limits.channels[channel];
    if (channelRule)
      return { key, rule: { limit: channelRule.limit, windowMs: channelRule.windowMs ?? limits.windowMs } };
    return {
      key,
      rule: { limit: limits.postMessageBurst, windowMs: limits.postMessageBurst * limits.postMessageIntervalMs },
    };
  }
  const perWindow = METHOD_TIERS[method];
  return perWindow ? { key, rule: { limit: perWindow, windowMs: limits.windowMs } } : undefined;
}

/** Whole seconds, at least 1: Slack's clients refuse a Retry-After they cannot parse as an integer. */
export function retryAfterSeconds(resetAfterMs: number): string {
  return String(Math.max(1, Math.ceil(resetAfterMs / 1000)));
}
