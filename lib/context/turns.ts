/**
 * @module
 * Turns stored messages into chat turns: the bot's own messages become assistant turns, everyone else's user turns
 * (with the speaker's name when several people talk), and consecutive turns of one role merge into one.
 */
import type { StoredMessage } from "../message.ts";
import type { ChatMessage } from "./chat-message.ts";

/** Separates messages merged into one turn. */
export const MERGED_TURN_SEPARATOR = "\n\n";

export interface TurnOptions {
  botUserId: string;
  /** Prefix user turns with "Name: " (when more than one human takes part). */
  speakerNames: boolean;
}

/** True when more than one human wrote among `messages`. */
export function severalHumans(messages: StoredMessage[], botUserId: string): boolean {
  const humans = new Set(messages.filter((m) => m.authorId !== botUserId).map((m) => m.authorId));
  return humans.size > 1;
}

export function toTurn(message: StoredMessage, text: string, opts: TurnOptions): ChatMessage {
  if (message.authorId === opts.botUserId) return { role: "assistant", content: text };
  return { role: "user", content: opts.speakerNames ? `${speakerName(message.authorName)}: ${text}` : text };
}

/** A display name is chosen by its owner: never more than one short line, so it cannot pose as a turn of its own. */
const MAX_NAME_CHARS = 64;
const LINE_BREAKS_AND_CONTROLS = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;

export function speakerName(name: string): string {
  return [...name.replace(LINE_BREAKS_AND_CONTROLS, " ").trim()].slice(0, MAX_NAME_CHARS).join("") || "someone";
}

export function mergeTurns(turns: ChatMessage[]): ChatMessage[] {
  const merged: ChatMessage[] = [];
  for (const turn of turns) {
    const last = merged.at(-1);
    if (last && last.role === turn.role) last.content += MERGED_TURN_SEPARATOR + turn.content;
    else merged.push({ ...turn });
  }
  return merged;
}
