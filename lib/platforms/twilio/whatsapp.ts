/**
 * @module
 * WhatsApp through Twilio: its senders and people arrive on the same Messages webhook as SMS, with `whatsapp:+…`
 * addresses, and are answered from the same address. What differs from SMS: no segments (emoji cost nothing), so no
 * GSM-7 folding, but Twilio still takes at most 1,600 characters of Body; and nobody handles STOP for us (Twilio's
 * opt-out keywords cover SMS only), so the bot records an opt-out itself and confirms it, once.
 */
import type { CarrierKeyword } from "./keywords.ts";
import { carrierKeyword } from "./keywords.ts";
import { cutAtBreak, SMS_MAX_BODY_CHARS } from "./sms-text.ts";

const WHATSAPP_PREFIX = "whatsapp:";

export const isWhatsApp = (address: string): boolean => address.startsWith(WHATSAPP_PREFIX);

/** The number behind an address: `whatsapp:+1555…` and `+1555…` are the same number on two channels. */
export const numberOf = (address: string): string =>
  isWhatsApp(address) ? address.slice(WHATSAPP_PREFIX.length) : address;

/** The system-prompt line for WhatsApp conversations. */
export function whatsappNote(): string {
  return (
    `This conversation happens on WhatsApp. Answer briefly, in at most ${SMS_MAX_BODY_CHARS} characters: Markdown ` +
    `bold, italics, lists and code are shown with WhatsApp's own marks, but no headings or tables.`
  );
}

/** The answer as it is sent: cut to Twilio's 1,600 characters where a reader expects a break. */
export function fitWhatsAppReply(text: string): string {
  return cutAtBreak(text, SMS_MAX_BODY_CHARS);
}

/** STOP and START (and their variants) as on SMS; HELP is an ordinary question here: no one else answers it. */
export function whatsappKeyword(body: string): Exclude<CarrierKeyword, "help"> | null {
  const keyword = carrierKeyword(body);
  return keyword === "help" ? null : keyword;
}

/** What the bot answers, at once in the TwiML, to a WhatsApp STOP or START. */
export const WHATSAPP_KEYWORD_ANSWERS: Record<Exclude<CarrierKeyword, "help">, string> = {
  opt_out: "You will not get any more messages from us here. Send START to talk again.",
  opt_in: "Welcome back! Ask me anything.",
};
