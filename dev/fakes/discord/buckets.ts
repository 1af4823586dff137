/**
 * @module
 * The Discord REST fake's rate limits: per-route buckets keyed on the top-level resource (channel, or webhook +
 * token) and a global 50 requests/second per bot (interaction webhooks are exempt, as on Discord), with the
 * `X-RateLimit-*` headers Discord sends on every answer and its 429 (`{message, retry_after, global}` +
 * `Retry-After`). Discord documents no fixed numbers (read the headers); the defaults are the commonly observed
 * ones: 5 messages per 5 s per channel; for edits, which have no documented rate, the same 5 per 5 s per channel;
 * typing 5 per 5 s per channel; interaction webhooks 5 per 2 s per token.
 */
import type { ServerResponse } from "node:http";
import { z } from "zod";
import { sendJson } from "../http.ts";
import type { LimitVerdict, RateLimiter } from "../rate-limit.ts";

const limitSchema = z.strictObject({ limit: z.number().int().positive(), windowMs: z.number().int().positive() });
export const discordLimitsSchema = z.strictObject({
  enabled: z.boolean(),
  createMessage: limitSchema,
  editMessage: limitSchema,
  typing: limitSchema,
  webhook: limitSchema,
  global: limitSchema,
});
export type DiscordLimits = z.output<typeof discordLimitsSchema>;
export type DiscordBucketName = Exclude<keyof DiscordLimits, "enabled" | "global">;

export const DEFAULT_DISCORD_LIMITS: DiscordLimits = {
  enabled: true,
  createMessage: { limit: 5, windowMs: 5_000 },
  editMessage: { limit: 5, windowMs: 5_000 },
  typing: { limit: 5, windowMs: 5_000 },
  webhook: { limit: 5, windowMs: 2_000 },
  global: { limit: 50, windowMs: 1_000 },
};

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function headers(bucket: string, verdict: LimitVerdict): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(verdict.limit),
    "X-RateLimit-Remaining": String(verdict.remaining),
    "X-RateLimit-Reset": seconds(verdict.resetAt),
    "X-RateLimit-Reset-After": seconds(verdict.resetAfterMs),
    "X-RateLimit-Bucket": bucket,
  };
}

/**
 * Counts the call against the global bucket (unless exempt) and its route bucket; answers the 429 and returns
 * undefined when either is spent, else returns the headers for the answer.
 */
export function takeDiscordLimit(
  res: ServerResponse,
  limiter: RateLimiter,
  limits: DiscordLimits,
  call: { bucket: DiscordBucketName; resource: string; botToken?: string },
): Record<string, string> | undefined {
  if (!limits.enabled) return {};
  if (call.bucket !== "webhook") {
    const global = limiter.hit(`global|${call.botToken ?? ""}`, limits.global, "global");
    if (!global.allowed) {
      const retryAfter = global.resetAfterMs / 1000;
      sendJson(
        res,
        429,
        { message: "You are being rate limited.", retry_after: retryAfter, global: true },
        {
          "Retry-After": String(Math.max(1, Math.ceil(retryAfter))),
          "X-RateLimit-Global": "true",
          "X-RateLimit-Scope": "global",
        },
      );
      return undefined;
    }
  }
  const verdict = limiter.hit(`${call.bucket}|${call.resource}`, limits[call.bucket], call.bucket);
  const bucketHeaders = headers(`fake-${call.bucket}`, verdict);
  if (verdict.allowed) return bucketHeaders;
  const retryAfter = verdict.resetAfterMs / 1000;
  sendJson(
    res,
    429,
    { message: "You are being rate limited.", retry_after: Number(retryAfter.toFixed(3)), global: false },
    {
      ...bucketHeaders,
      "Retry-After": String(Math.max(1, Math.ceil(retryAfter))),
      "X-RateLimit-Scope": "user",
    },
  );
  return undefined;
}
