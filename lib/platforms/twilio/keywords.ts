/**
 * @module
 * The carrier keywords that Twilio answers itself on long codes. The bot records them but never answers them with
 * the model; opt-out and opt-in change whether the number may be messaged at all.
 */

export type CarrierKeyword = "opt_out" | "opt_in" | "help";

const KEYWORDS: ReadonlyMap<string, CarrierKeyword> = new Map([
  ["STOP", "opt_out"],
  ["STOPALL", "opt_out"],
  ["UNSUBSCRIBE", "opt_out"],
  ["CANCEL", "opt_out"],
  ["END", "opt_out"],
  ["QUIT", "opt_out"],
  ["START", "opt_in"],
  ["YES", "opt_in"],
  ["UNSTOP", "opt_in"],
  ["HELP", "help"],
  ["INFO", "help"],
]);

/**
 * The keyword a message consists of, or null: the whole body, case-insensitive, surrounding whitespace ignored
 * ("please stop texting me" is an ordinary message). Deliberately no looser than that: a variant Twilio does treat
 * as an opt-out still ends well, because sending to that number then fails with 21610 and marks it opted out.
 */
export function carrierKeyword(body: string): CarrierKeyword | null {
  return KEYWORDS.get(body.trim().toUpperCase()) ?? null;
}

/** Just YES or NO, any case, trimmed, with at most a little final punctuation ("yes!", "No."). */
const APPROVAL_REPLY = /^(yes|no)[.!?]{0,3}$/i;

/**
 * What a message that is just YES or NO would say to a pending approval (lib/approvals/capability.ts); the webhook
 * flow asks whether one is pending. YES is also an opt-in keyword (above): on SMS Twilio reads it so whatever it
 * answers; NO is none of Twilio's keywords.
 */
export function approvalReply(body: string): "approve" | "deny" | undefined {
  const word = APPROVAL_REPLY.exec(body.trim())?.[1];
  return word === undefined ? undefined : word.toUpperCase() === "YES" ? "approve" : "deny";
}
