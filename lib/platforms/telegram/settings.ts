/**
 * @module
 * Telegram's own settings. On with the bot token, the webhook's secret token and the bot's username (in groups a
 * message addresses the bot by `@username`; `npm run telegram:set-webhook` reads it with `getMe` and says when this
 * setting differs). A malformed one turns Telegram off and is named, never its value.
 */
import { flag, optionalText, readSettings, url } from "../../settings-schema.ts";
import * as z from "../../zod.ts";
import type { PlatformSettings } from "../adapter.ts";

/** `<bot id>:<secret>`, as @BotFather gives it (the id is the bot's user id: `botIdOf` below). */
export const BOT_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{20,}$/;
/** setWebhook's `secret_token`: 1-256 characters, only A-Z, a-z, 0-9, _ and - (the Bot API reference). */
export const WEBHOOK_SECRET = /^[A-Za-z0-9_-]{1,256}$/;
/** Usernames are 5-32 characters of Latin letters, digits and underscores; a bot's ends in "bot" (any case). */
const USERNAME = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

const shape = {
  TELEGRAM_BOT_TOKEN: optionalText.check(
    z.refine((v) => v === undefined || BOT_TOKEN.test(v), "must be the token @BotFather gave (`<digits>:<letters>`)"),
  ),
  TELEGRAM_WEBHOOK_SECRET: optionalText.check(
    z.refine(
      (v) => v === undefined || WEBHOOK_SECRET.test(v),
      "must be 1-256 of A-Z, a-z, 0-9, _ and - (`openssl rand -hex 32`)",
    ),
  ),
  TELEGRAM_BOT_USERNAME: optionalText.check(
    z.refine(
      (v) => v === undefined || USERNAME.test(v.replace(/^@/, "")),
      "must be the bot's username (5-32 letters, digits, _), with or without @",
    ),
  ),
  TELEGRAM_API_BASE_URL: z._default(url, "https://api.telegram.org"),
  /** The reaction put on a group message while the bot works on it (an emoji Telegram allows); empty for none. */
  TELEGRAM_STATUS_REACTION: z._default(z.string().check(z.trim()), "👀"),
  /** 👍 / 👎 under every answer of the bot's (./feedback.ts): Telegram has no `/parley` to turn it on per chat. */
  TELEGRAM_FEEDBACK: flag(false),
};

export type TelegramSettings = { [K in keyof typeof shape]: z.output<(typeof shape)[K]> };

export const telegramSettings: PlatformSettings<TelegramSettings> = {
  read: (env) =>
    readSettings(shape, env, {
      essential: ["TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET", "TELEGRAM_BOT_USERNAME", "TELEGRAM_API_BASE_URL"],
    }),
  enabled: (s) => Boolean(s.TELEGRAM_BOT_TOKEN && s.TELEGRAM_WEBHOOK_SECRET && s.TELEGRAM_BOT_USERNAME),
  tokenSetting: "TELEGRAM_BOT_TOKEN",
  token: (s) => s.TELEGRAM_BOT_TOKEN,
};

/** The bot's username without its @, as `@username` mentions and `/command@username` commands name it. */
export function botUsername(s: Pick<TelegramSettings, "TELEGRAM_BOT_USERNAME">): string {
  return (s.TELEGRAM_BOT_USERNAME ?? "").replace(/^@/, "");
}

/** The bot's user id: the digits before the token's colon (every update names the bot by it). */
export function botIdOf(token: string): string {
  return token.slice(0, token.indexOf(":"));
}
