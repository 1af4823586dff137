/**
 * @module
 * Who a text is sent from, as Twilio decides it: a `From` number (SMS) or `whatsapp:` sender, or a Messaging
 * Service (`MessagingServiceSid`) that picks one of its numbers for the channel of `To`, the same one for the same
 * recipient every time (Twilio's "sticky sender"). Plus the fake's settings for services and WhatsApp's limits.
 */
import { z } from "zod";
import { TWILIO_ERRORS, type TwilioError } from "./errors.ts";

const WHATSAPP_PREFIX = "whatsapp:";

const twilioSettingsSchema = z.strictObject({
  /** `{"MG…": {numbers: ["+1…", "whatsapp:+1…"]}}`: the senders of each Messaging Service. */
  messagingServices: z.record(
    z.string().regex(/^MG[0-9a-fA-F]{32}$/),
    z.strictObject({ numbers: z.array(z.string().min(2)).min(1) }),
  ),
  /**
   * Twilio's Messages API takes at most 1,600 characters of Body on every channel, WhatsApp included (error 21617),
   * although WhatsApp itself allows 4,096: a sender that relies on 4,096 would fail in production.
   */
  whatsappMaxBodyChars: z.number().int().positive(),
  /** When set, a WhatsApp text is delivered only within this long after the person's last message to that sender
   *  (`POST /__whatsapp_inbound`); otherwise it fails with 63016. Off (null) by default. */
  whatsappSessionWindowMs: z.number().int().positive().nullable(),
});
export type TwilioSettings = z.output<typeof twilioSettingsSchema>;
export const twilioSettingsPatchSchema = twilioSettingsSchema.partial();

export const DEFAULT_TWILIO_SETTINGS: TwilioSettings = {
  messagingServices: {},
  whatsappMaxBodyChars: 1_600,
  whatsappSessionWindowMs: null,
};

export const isWhatsApp = (address: string) => address.startsWith(WHATSAPP_PREFIX);

/** The sender of a text, or the error Twilio answers. */
export function chooseSender(
  settings: TwilioSettings,
  to: string,
  from: string | undefined,
  serviceSid: string | undefined,
): { from: string } | TwilioError {
  if (from) return isWhatsApp(from) === isWhatsApp(to) ? { from } : TWILIO_ERRORS.channelMismatch;
  if (!serviceSid) return TWILIO_ERRORS.missingFrom;
  const service = settings.messagingServices[serviceSid];
  if (!service) return TWILIO_ERRORS.unknownService;
  const candidates = service.numbers.filter((n) => isWhatsApp(n) === isWhatsApp(to));
  if (candidates.length === 0) return TWILIO_ERRORS.noSenderInService;
  return { from: candidates[stickyIndex(to, candidates.length)]! };
}

function stickyIndex(to: string, count: number): number {
  let hash = 0;
  for (const char of to) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % count;
}
