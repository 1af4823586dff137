/**
 * @module
 * Telegram signs nothing: a webhook delivery carries the secret token given to `setWebhook` in the
 * `X-Telegram-Bot-Api-Secret-Token` header, as the fake (dev/fakes/telegram/deliver.ts) and Telegram send it.
 */

const TELEGRAM_SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token";

export function telegramHeaders(secretToken: string): Record<string, string> {
  return { "Content-Type": "application/json", [TELEGRAM_SECRET_HEADER]: secretToken };
}
