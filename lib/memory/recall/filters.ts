/**
 * @module
 * The metadata filters recall queries and deletes with (Upstash's filter language). Values are single-quoted;
 * Upstash does not document an escape inside quotes, so a value with a quote or a backslash is refused rather than
 * guessed at (platform ids never have one).
 */
import type { ConversationKey } from "../../message.ts";
import type { Visibility } from "./passage.ts";

const UNQUOTABLE = /['"\\\p{Cc}]/u;

export function quoted(value: string): string {
  if (UNQUOTABLE.test(value))
    throw new Error("a recall filter value may not contain quotes, backslashes or control characters");
  return `'${value}'`;
}

/**
 * What one place may recall: its own channel's passages of the same visibility (so a DM recalls only that DM, and a
 * channel that was private and became public never shows what was said while it was private). The namespace
 * already holds one bot and tenant; naming them again costs nothing and keeps a mixed namespace safe.
 */
export function recallFilter(place: ConversationKey, visibility: Visibility): string {
  return [
    `platform = ${quoted(place.platform)}`,
    `tenant = ${quoted(place.tenant)}`,
    `channel = ${quoted(place.channel)}`,
    `visibility = ${quoted(visibility)}`,
  ].join(" AND ");
}

/** "Forget me": every passage with the person's messages, and the conversation where they asked. */
export function forgetFilter(personId: string, conversationId: string): string {
  return `people CONTAINS ${quoted(personId)} OR conversation = ${quoted(conversationId)}`;
}

/** Retention: passages whose last message is older than `cutoff` (ms since the epoch). */
export function olderThanFilter(cutoff: number): string {
  if (!Number.isFinite(cutoff)) throw new Error("the retention cutoff must be a finite time");
  return `end < ${Math.floor(cutoff)}`;
}
