/**
 * @module
 * Which texts are for the bot: those sent to one of its numbers (TWILIO_PHONE_NUMBER, TWILIO_PHONE_NUMBERS; a
 * number covers its WhatsApp sender too), or through its Messaging Service (TWILIO_MESSAGING_SERVICE_SID, any
 * sender in the service's pool). Another number of the account whose webhook points here by mistake is not
 * answered from.
 */
import type { TwilioSettings } from "./settings.ts";
import { numberOf } from "./whatsapp.ts";
import type { TwilioSms } from "./parse.ts";

export function reachedBot(
  settings: Pick<TwilioSettings, "TWILIO_MESSAGING_SERVICE_SID" | "TWILIO_PHONE_NUMBER" | "TWILIO_PHONE_NUMBERS">,
  sms: Pick<TwilioSms, "To" | "MessagingServiceSid">,
): boolean {
  const service = settings.TWILIO_MESSAGING_SERVICE_SID;
  if (service && sms.MessagingServiceSid === service) return true;
  const to = numberOf(sms.To);
  return [settings.TWILIO_PHONE_NUMBER, ...settings.TWILIO_PHONE_NUMBERS].some(
    (n) => n !== undefined && numberOf(n) === to,
  );
}
