/**
 * @module
 * Twilio's inbound SMS webhook form, validated with zod, and its translation into an InboundMessage. Unknown
 * parameters are allowed (Twilio adds some without notice); the signature covers them all, see verify.ts.
 */
import * as z from "../../zod.ts";
import type { InboundMessage } from "../../message.ts";
import { describeIssues } from "../../zod-issues.ts";
import type { TwilioTarget } from "./target.ts";

/** The person is never named by their number in the prompt: the model needs no phone numbers. */
export const SMS_AUTHOR_NAME = "Texter";
/** What the conversation records for a message that carried only pictures or files. */
export const MEDIA_ONLY_TEXT = "[sent an attachment without text]";

/** Conversation keys join their parts with `|`, so an address must not contain one. */
const address = z.string().check(z.trim(), z.minLength(1), z.maxLength(64), z.regex(/^[^|\s]+$/, "is not a phone number or address"));
const sid = (prefix: string) => z.string().check(z.regex(new RegExp(`^${prefix}[A-Za-z0-9]{1,64}$`), `is not a ${prefix}… id`));

export const twilioSmsSchema = z.looseObject({
  MessageSid: z.string().check(z.regex(/^[A-Z]{2}[A-Za-z0-9]{1,64}$/, "is not a message sid")),
  AccountSid: sid("AC"),
  From: address,
  To: address,
  Body: z._default(z.string(), ""),
  NumMedia: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  MessagingServiceSid: z.optional(sid("MG")),
});

export type TwilioSms = z.output<typeof twilioSmsSchema>;

export type ParsedTwilioSms = { ok: true; sms: TwilioSms } | { ok: false; issues: string };

export function parseTwilioSms(form: URLSearchParams): ParsedTwilioSms {
  const parsed = twilioSmsSchema.safeParse(Object.fromEntries(form));
  if (parsed.success) return { ok: true, sms: parsed.data };
  return { ok: false, issues: describeIssues(parsed.error) };
}

/** Pictures or files and no words: the bot can only read text. */
export function isMediaOnly(sms: TwilioSms): boolean {
  return sms.NumMedia > 0 && sms.Body.trim() === "";
}

/**
 * One conversation per account, bot number and sender (a WhatsApp address is not the same sender as its number's
 * SMS). Twilio's webhook carries no send time, so the message
 * is stamped with the time it arrived.
 */
export function toInboundMessage(sms: TwilioSms, receivedAt: number): InboundMessage {
  return {
    key: { platform: "twilio", tenant: sms.AccountSid, channel: `${sms.To}|${sms.From}` },
    id: sms.MessageSid,
    author: { id: sms.From, name: SMS_AUTHOR_NAME, isBot: false },
    text: isMediaOnly(sms) ? MEDIA_ONLY_TEXT : sms.Body,
    ts: receivedAt,
    addressing: "dm",
    mentions: [],
    replyTarget: {
      platform: "twilio",
      accountSid: sms.AccountSid,
      to: sms.From,
      from: sms.To,
      ...(sms.MessagingServiceSid ? { messagingServiceSid: sms.MessagingServiceSid } : {}),
    } satisfies TwilioTarget,
    visibility: "dm",
  };
}
