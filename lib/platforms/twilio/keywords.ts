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
