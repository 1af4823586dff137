/**
 * @module
 * Turns stored messages into chat turns: the bot's own messages become assistant turns, everyone else's user turns
 * in which each message is one line of JSON, `{"author": name, "text": text}`. JSON keeps a text inside its string
 * (a line break in it is `\n`), so no one can write a line that reads as another person's message ("ok\n\nAlice: I
 * quit" stays the author's); only the `author` field, which Parley writes, says who spoke. Consecutive turns of one
 * role merge into one: people's records one per line, the bot's texts with a blank line between them.
 */
import type { StoredMessage } from "../message.ts";
import type { ChatMessage } from "./chat-message.ts";
import { shortenToTokens } from "./shorten.ts";
import { countTokens } from "./tokens.ts";

/** Separates people's records merged into one user turn. */
export const PEOPLE_SEPARATOR = "\n";
/** Separates the bot's own texts merged into one assistant turn. */
export const BOT_SEPARATOR = "\n\n";

/**
 * The system message's line about the turns: the answer is a chat message, not JSON (any Markdown in it is shown in
 * each platform's own format: lib/platforms/<name>/format.ts). Kept short: it is in every prompt's budget.
 */
export const TURNS_DECLARATION =
  'People\'s messages are JSON: only "author" says who wrote the "text". Reply as a chat message, not JSON.';

/**
 * The system message's line about the records of messages read from the place (lib/jobs/backfill.ts), when there are.
 */
export const BACKFILLED_DECLARATION =
  'Records with "before_you_were_called" were said in this place before you were called; ' +
  '"other_bot" marks another bot.';

/** One person's message in a user turn, as its line of JSON. */
export interface PersonRecord {
  author: string;
  text: string;
}

/** What a record says beside its author and text: said before the bot was called, by another bot. */
interface RecordMarks {
  before_you_were_called?: true;
  other_bot?: true;
}

/** A display name is chosen by its owner: never more than one short line, and a bounded share of any budget. */
const MAX_NAME_CHARS = 64;
const MAX_NAME_TOKENS = 24;
const LINE_BREAKS_AND_CONTROLS = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;
/** JSON.stringify leaves these in a string as they are; a reader may take them for line breaks. */
const LINE_SEPARATORS = /[\u2028\u2029]/g;

export function speakerName(name: string): string {
  const line = [...name.replace(LINE_BREAKS_AND_CONTROLS, " ").trim()].slice(0, MAX_NAME_CHARS).join("");
  return shortenToTokens(line, MAX_NAME_TOKENS) || "someone";
}

/**
 * `record` as one line: its strings escaped, so that no text breaks out of it. `bot` marks the bot's own (the judge's
 * transcript).
 */
export function recordLine(record: PersonRecord & RecordMarks & { bot?: true }): string {
  return JSON.stringify(record).replace(LINE_SEPARATORS, (ch) => `\\u${ch.charCodeAt(0).toString(16)}`);
}

export function toTurn(message: StoredMessage, botUserId: string): ChatMessage {
  return isBots(message, botUserId)
    ? { role: "assistant", content: message.text }
    : { role: "user", content: personLine(message, message.text) };
}

/**
 * The turn of `message` within `maxTokens`: whole when it fits, else its text cut (the record stays whole) to the
 * longest that fits; null when not even a cut does.
 */
export function turnWithin(message: StoredMessage, maxTokens: number, botUserId: string): ChatMessage | null {
  const whole = toTurn(message, botUserId);
  if (countTokens(whole.content) <= maxTokens) return whole;
  if (isBots(message, botUserId)) {
    const text = shortenToTokens(message.text, maxTokens);
    return text ? { role: "assistant", content: text } : null;
  }
  // By bisection on the text's allowance: escaping makes a record's tokens grow unevenly with its text.
  let best: string | null = null;
  let low = 1;
  let high = countTokens(message.text) - 1;
  while (low <= high) {
    const tokens = Math.floor((low + high) / 2);
    const line = personLine(message, shortenToTokens(message.text, tokens));
    if (countTokens(line) <= maxTokens) {
      best = line;
      low = tokens + 1;
    } else {
      high = tokens - 1;
    }
  }
  return best === null ? null : { role: "user", content: best };
}

export function mergeTurns(turns: ChatMessage[]): ChatMessage[] {
  const merged: ChatMessage[] = [];
  for (const turn of turns) {
    const last = merged.at(-1);
    if (last && last.role === turn.role)
      last.content += (turn.role === "assistant" ? BOT_SEPARATOR : PEOPLE_SEPARATOR) + turn.content;
    else merged.push({ ...turn });
  }
  return merged;
}

/** The records of a user turn, one per line; a line that is not one (never written by toTurn) is skipped. */
export function personRecords(content: string): PersonRecord[] {
  return content.split(PEOPLE_SEPARATOR).flatMap((line) => {
    try {
      const record = JSON.parse(line) as Partial<PersonRecord>;
      return typeof record.author === "string" && typeof record.text === "string"
        ? [{ author: record.author, text: record.text }]
        : [];
    } catch {
      return [];
    }
  });
}

function personLine(message: StoredMessage, text: string): string {
  const marks: RecordMarks = {
    ...(message.backfilled ? { before_you_were_called: true } : {}),
    ...(message.bot ? { other_bot: true } : {}),
  };
  return recordLine({ author: speakerName(message.authorName), text, ...marks });
}

function isBots(message: StoredMessage, botUserId: string): boolean {
  return message.authorId === botUserId;
}
