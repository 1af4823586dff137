/**
 * @module
 * What the prompt gets of the facts about the people of a conversation: per person, the name and the newest facts
 * that may be shown where the prompt answers (up to FACTS_IN_PROMPT). They are data about people, never
 * instructions: the prompt builder puts them in its data block (lib/context/data-block.ts).
 */
import type { Tenancy } from "../keys.ts";
import type { FactScope, FactStore } from "./fact-store.ts";
import type { Person } from "./people.ts";

export interface RememberedPerson {
  name: string;
  /** Oldest first. */
  facts: string[];
}

/** One MGET for everyone, then the people with facts shown in `scope`, in the order of `people`. */
export async function rememberedAbout(
  store: FactStore,
  where: Tenancy,
  people: Person[],
  scope: FactScope,
  perPerson: number,
): Promise<RememberedPerson[]> {
  const facts = await store.load(
    where,
    people.map((p) => p.id),
    scope,
  );
  return people.flatMap((p) => {
    const shown = (facts.get(p.id) ?? []).slice(-perPerson).map((f) => f.text);
    return shown.length > 0 ? [{ name: p.name, facts: shown }] : [];
  });
}
