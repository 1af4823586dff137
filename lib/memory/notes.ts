/**
 * @module
 * Facts about the people of a conversation as system notes of the prompt: one line per person, newest facts kept
 * when there are more than the prompt may carry. The prompt builder fits the lines into the token budget.
 */
import type { ConversationKey } from "../message.ts";
import type { Fact, FactStore } from "./fact-store.ts";
import type { Person } from "./people.ts";

export function factNote(person: Person, facts: Fact[], perPerson: number): string | null {
  const shown = perPerson > 0 ? facts.slice(-perPerson) : [];
  if (shown.length === 0) return null;
  return `What you remember about ${person.name} from earlier conversations: ${shown.map((f) => f.text).join("; ")}.`;
}

/** One MGET for everyone, then a line for each person with facts, in the order of `people`. */
export async function factNotes(store: FactStore, place: ConversationKey, people: Person[], perPerson: number): Promise<string[]> {
  if (perPerson === 0 || people.length === 0) return [];
  const facts = await store.load(place, people.map((p) => p.id));
  return people.flatMap((p) => {
    const note = factNote(p, facts.get(p.id) ?? [], perPerson);
    return note ? [note] : [];
  });
}
