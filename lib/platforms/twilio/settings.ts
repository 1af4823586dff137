/**
 * @module
 * Twilio's own settings (SMS and WhatsApp). On with the account sid, its auth token and at least one of the bot's
 * numbers or its Messaging Service; a malformed one of those turns Twilio off and is named. The SMS tunables fall
 * back to their defaults when malformed, and are named too.
 */
import { list, optionalText, readSettings, url } from "../../settings-schema.ts";
import * as z from "../../zod.ts";
import type { PlatformSettings } from "../adapter.ts";

const shape = {
  TWILIO_ACCOUNT_SID: optionalText,
  TWILIO_AUTH_TOKEN: optionalText,
  TWILIO_PHONE_NUMBER: optionalText,
  /** More bot numbers on the same account, comma-separated; each covers its WhatsApp sender (`whatsapp:+…`) too. */
  TWILIO_PHONE_NUMBERS: z.pipe(
    list,
    z.array(
      z
        .string()
        .check(z.regex(/^(whatsapp:)?\+[1-9]\d{6,14}$/, "must list E.164 numbers (+15551234567), comma-separated")),
    ),
  ),
  /** A Messaging Service whose senders are all the bot's: texts through it are answered through it. */
  TWILIO_MESSAGING_SERVICE_SID: z.pipe(
    optionalText,
    z.optional(z.string().check(z.regex(/^MG[0-9a-fA-F]{32}$/, "must be a Messaging Service sid (MG + 32 hex)"))),
  ),
  TWILIO_API_BASE_URL: z._default(url, "https://api.twilio.com"),
  /** Fractions allowed (0.1 = 6 s) so tests and demos can watch an SMS conversation end. */
  SMS_CONVERSATION_GAP_MINUTES: z._default(z.coerce.number().check(z.gte(1 / 60)), 30),
  /** The length the model is asked to keep an SMS answer under; longer answers are cut at a sentence. */
  SMS_REPLY_TARGET_CHARS: z._default(z.coerce.number().check(z.int(), z.gte(70), z.lte(1_600)), 320),
  /** Texts that arrive within this many seconds of each other get one answer. */
  SMS_BURST_WINDOW_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(60)), 4),
};

export type TwilioSettings = { [K in keyof typeof shape]: z.output<(typeof shape)[K]> };

export const twilioSettings: PlatformSettings<TwilioSettings> = {
  read: (env) =>
    readSettings(shape, env, {
      essential: [
        "TWILIO_ACCOUNT_SID",
        "TWILIO_AUTH_TOKEN",
        "TWILIO_PHONE_NUMBER",
        "TWILIO_PHONE_NUMBERS",
        "TWILIO_MESSAGING_SERVICE_SID",
        "TWILIO_API_BASE_URL",
      ],
    }),
  enabled: (s) =>
    Boolean(
      s.TWILIO_ACCOUNT_SID &&
        s.TWILIO_AUTH_TOKEN &&
        (s.TWILIO_PHONE_NUMBER || s.TWILIO_PHONE_NUMBERS.length || s.TWILIO_MESSAGING_SERVICE_SID),
    ),
  tokenSetting: "TWILIO_AUTH_TOKEN",
  token: (s) => s.TWILIO_AUTH_TOKEN,
  /** A text conversation ends after a gap of quiet, not the channels' short timeout. */
  conversationTtlSeconds: (s) => Math.round(s.SMS_CONVERSATION_GAP_MINUTES * 60),
};
