/**
 * @module
 * Twilio's inbound SMS webhook form, validated with zod, and its translation into an InboundMessage. Unknown
 * parameters are allowed (Twilio adds some without notice); the signature covers them all, see verify.ts.
 */
import * as z from "../../zod.ts";
import type { InboundMessage } from "../../message.ts";
import { describeIssues } from "../../zod-issues.ts";
import type { TwilioTarget } from "./target.ts";
import { twilioFileRefs } from "./files.ts";

/** The person is never named by their number in the prompt: the model needs no phone numbers. */
const SMS_AUTHOR_NAME = "Texter";
/** What the conversation records for a message whose only media Parley could not keep a reference to. */
export const MEDIA_ONLY_TEXT = "[sent an attachment without text]";
/** A coordinate as Twilio writes it (a decimal number); anything else is not read as a location. */
const coordinate = z.optional(z.string().check(z.regex(/^-?\d{1,3}(?:\.\d+)?$/)));

/** Conversation keys join their parts with `|`, so an address must not contain one. */
const address = z
  .string()
  .check(z.trim(), z.minLength(1), z.maxLength(64), z.regex(/^[^|\s]+$/, "is not a phone number or address"));
const sid = (prefix: string) =>
  z.string().check(z.regex(new RegExp(`^${prefix}[A-Za-z0-9]{1,64}$`), `is not a ${prefix}… id`));

const twilioSmsSchema = z.looseObject({
  MessageSid: z.string().check(z.regex(/^[A-Z]{2}[A-Za-z0-9]{1,64}$/, "is not a message sid")),
  AccountSid: sid("AC"),
  From: address,
  To: address,
  Body: z._default(z.string(), ""),
  NumMedia: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  MessagingServiceSid: z.optional(sid("MG")),
  /** A WhatsApp location: coordinates, and the place's name and address when the person picked a named place. */
  Latitude: z.catch(coordinate, undefined),
  Longitude: z.catch(coordinate, undefined),
  Label: z.optional(z.string()),
  Address: z.optional(z.string()),
});

export type TwilioSms = z.output<typeof twilioSmsSchema>;

export type ParsedTwilioSms = { ok: true; sms: TwilioSms } | { ok: false; issues: string };

export function parseTwilioSms(form: URLSearchParams): ParsedTwilioSms {
  const parsed = twilioSmsSchema.safeParse(Object.fromEntries(form));
  if (parsed.success) return { ok: true, sms: parsed.data };
  return { ok: false, issues: describeIssues(parsed.error) };
}

/** Pictures or files and no words: the answer reads the pictures (or names the files). */
export function isMediaOnly(sms: TwilioSms): boolean {
  return sms.NumMedia > 0 && sms.Body.trim() === "" && locationText(sms) === null;
}

/**
 * A shared location (WhatsApp sends it without a Body) as the line the model reads, as a person would describe
 * it: `[location: Blue Bottle, 66 Mint St (37.7825, -122.4079)]`, or only the coordinates for a dropped pin.
 */
function locationText(sms: TwilioSms): string | null {
  if (sms.Latitude === undefined || sms.Longitude === undefined) return null;
  const place = [sms.Label, sms.Address]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(", ");
  const at = `${sms.Latitude}, ${sms.Longitude}`;
  return `[location: ${place ? `${place} (${at})` : at}]`;
}

/**
 * What the person said: the Body, with a shared location's line after it; nothing for pictures without words
 * (their files say it), a marker when none of the media could be kept.
 */
function messageText(sms: TwilioSms, files: number): string {
  const location = locationText(sms);
  if (location) return sms.Body.trim() ? `${sms.Body}\n${location}` : location;
  return isMediaOnly(sms) && files === 0 ? MEDIA_ONLY_TEXT : sms.Body;
}

/**
 * One conversation per account, bot number and sender (a WhatsApp address is not the same sender as its number's
 * SMS). Twilio's webhook carries no send time, so the message
 * is stamped with the time it arrived.
 */
export function toInboundMessage(sms: TwilioSms, receivedAt: number): InboundMessage {
  const files = twilioFileRefs(sms, sms.NumMedia);
  return {
    key: { platform: "twilio", tenant: sms.AccountSid, channel: `${sms.To}|${sms.From}` },
    id: sms.MessageSid,
    author: { id: sms.From, name: SMS_AUTHOR_NAME, isBot: false },
    text: messageText(sms, files.length),
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
    ...(files.length ? { files } : {}),
  };
}
