/**
 * @module
 * Who takes part in a conversation, as far as memory is concerned: the humans who wrote in it.
 */
import type { StoredMessage } from "../message.ts";

export interface Person {
  id: string;
  name: string;
}

/** The humans among `messages`, `first` (the person being answered) first, then the most recent speakers. */
export function peopleIn(messages: StoredMessage[], botUserId: string, first?: string): Person[] {
  const byId = new Map<string, Person>();
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user" && m.authorId !== botUserId && !byId.has(m.authorId))
      byId.set(m.authorId, { id: m.authorId, name: m.authorName });
  }
  const people = [...byId.values()];
  const index = people.findIndex((p) => p.id === first);
  if (index > 0) people.unshift(...people.splice(index, 1));
  return people;
}
