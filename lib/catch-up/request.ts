/**
 * @module
 * "Catch me up": a message addressed to the bot that is nothing but a request for a summary of the place (after the
 * bot's name or mention), such as "catch me up", "what did I miss?", "tl;dr of this thread" or "summarize the last
 * two hours". Only the whole message counts, so "can you summarize the doc I sent?" stays a question for the
 * answer. The window a request names ("the last two hours") comes back in milliseconds; the job caps it
 * (lib/catch-up/step.ts).
 */
import type { BotIdentity } from "../message.ts";
import { normalizeWords } from "../text/normalize.ts";

/** A catch-up request; `windowMs` when it named how far back to read. */
export interface CatchUpRequest {
  windowMs?: number;
}

const MS_PER_MINUTE = 60_000;
const UNIT_MS: Record<string, number> = {
  minute: MS_PER_MINUTE,
  min: MS_PER_MINUTE,
  hour: 60 * MS_PER_MINUTE,
  hr: 60 * MS_PER_MINUTE,
  day: 24 * 60 * MS_PER_MINUTE,
};
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  few: 3,
  couple: 2,
};

const POLITE = String.raw`(?:(?:hey|hi|ok|okay|so|please|pls|can you|could you|would you|mind|quick)\s+)*`;
const ASK =
  "(?:catch me up|catch up|get me up to speed|bring me up to speed|fill me in|what did i miss|what have i missed|" +
  "what did we miss|tl ?dr|too long didn t read|recap|summari[sz]e|summary|give me a (?:summary|recap|tl ?dr))";
const PLACE_NOUN = "(?:thread|channel|chat|conversation|discussion|room|dm)";
const PLACE = String.raw`(?:(?:of|on|for|in)\s+)?(?:this|the)\s+${PLACE_NOUN}`;
const AMOUNT = String.raw`(\d{1,3}|${Object.keys(NUMBER_WORDS).join("|")})?`;
const WINDOW =
  String.raw`(?:(?:of|on|for|in|from|over)\s+)?(?:the\s+)?(?:last|past)\s+(?:a\s+)?(?:couple\s+of\s+|few\s+)?` +
  String.raw`${AMOUNT}\s*(minute|min|hour|hr|day)s?`;
const TAIL = String.raw`(?:\s+(?:please|pls|thanks|thank you|for me|here))*`;
const REQUEST = new RegExp(String.raw`^${POLITE}${ASK}(?:\s+${PLACE})?(?:\s+${WINDOW})?(?:\s+${PLACE})?${TAIL}$`);

/** The catch-up `text` asks for, or null when it is anything else (or the bot's name alone). */
export function catchUpRequest(text: string, bot: BotIdentity): CatchUpRequest | null {
  const names = [bot.name, ...bot.aliases].map(normalizeWords).filter(Boolean);
  // Each word of the text once, the bot's names dropped wherever they stand ("@Parley @Parley catch me up").
  // (Normalized names are letters, digits and spaces: nothing to escape.)
  const rest = names.length
    ? normalizeWords(text).replace(new RegExp(`(?<= |^)(?:${names.join("|")})(?= |$)`, "g"), "")
    : normalizeWords(text);
  const match = REQUEST.exec(rest.trim().replace(/\s+/g, " "));
  if (!match) return null;
  const [, amount, unit] = match;
  if (!unit) return {};
  const count =
    amount === undefined
      ? /couple/.test(match[0])
        ? 2
        : /few/.test(match[0])
          ? 3
          : 1
      : (NUMBER_WORDS[amount] ?? Number(amount));
  return count > 0 ? { windowMs: count * UNIT_MS[unit]! } : {};
}
