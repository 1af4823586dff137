/**
 * @module
 * Telegram signs nothing: `setWebhook`'s `secret_token` comes back in every delivery's
 * `X-Telegram-Bot-Api-Secret-Token` header, and a delivery without the exact value is not Telegram's. Compared in
 * constant time (an attacker must not learn the secret character by character from response times), before
 * anything of the body is read. Telegram's deliveries carry no timestamp: a replayed update is a repeated message,
 * which the ingest script's seen mark drops for an hour.
 */
import { constantTimeEqual } from "../../crypto.ts";

export const TELEGRAM_SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token";

export type TelegramVerifyResult = { ok: true } | { ok: false; reason: "missing_header" | "bad_secret" };

export function verifyTelegramSecret(expected: string, received: string | null): TelegramVerifyResult {
  if (!received) return { ok: false, reason: "missing_header" };
  return constantTimeEqual(expected, received) ? { ok: true } : { ok: false, reason: "bad_secret" };
}
