/**
 * @module
 * Who is in a channel view and whom a message addresses. Participants are small integers: the bot is 0, then
 * authors in order of their first message, then people only mentioned. A message addresses the one it opens
 * with ("alice: …", a shortened nick included) or names as an address ("hey alice", "thanks alice!"), and names
 * everyone it mentions or names as a whole word.
 */
import type { BotIdentity, StoredMessage } from "../message.ts";
import { nameUse } from "./address.ts";
import { leadingAddressee, normalizeText } from "./names.ts";
import { MIN_NICK_PREFIX, type Nick, charMask } from "./words.ts";

const NON_ALPHANUMERIC = /[^\p{L}\p{N}]+/u;
/** The bot's participant index in every view. */
export const BOT = 0;

interface Participant extends Nick {
  /** Full names, normalized: the nick or display name, and for the bot its aliases. */
  names: string[];
}

export interface Cast {
  people: Participant[];
  /** Participant ids by index, and back. */
  ids: string[];
  indexOf: Map<string, number>;
  /** Each full name to the first participant that has it. */
  byName: Map<string, number>;
  /** Every full name with its participant and its letters and digits (charMask), in participant order. */
  names: { index: number; name: string; chars: number }[];
}

/** Whom one message addresses: the participant it is for (-1 when none) and all it names (never its author). */
export interface Addressing {
  lead: number;
  named: number[];
}

function participant(index: number, names: string[]): Participant {
  const first = names[0] ?? "";
  const parts = first.split(NON_ALPHANUMERIC).filter((p) => p.length > 0);
  return { index, names, core: parts.join(""), head: parts[0] ?? "" };
}

export function readCast(recent: readonly StoredMessage[], bot: BotIdentity): Cast {
  const botNames = [bot.name, ...bot.aliases].map((n) => normalizeText(n.trim())).filter((n) => n.length > 0);
  const people = [participant(BOT, botNames)];
  const indexOf = new Map([[bot.userId, BOT]]);
  for (const m of recent) {
    if (indexOf.has(m.authorId)) continue;
    indexOf.set(m.authorId, people.length);
    people.push(participant(people.length, [normalizeText(m.authorName.trim())]));
  }
  for (const m of recent) {
    for (const id of m.mentions ?? []) {
      if (indexOf.has(id)) continue;
      indexOf.set(id, people.length);
      people.push(participant(people.length, []));
    }
  }
  const byName = new Map<string, number>();
  for (const p of people) for (const name of p.names) if (!byName.has(name)) byName.set(name, p.index);
  const names = people.flatMap((p) => p.names.map((name) => ({ index: p.index, name, chars: charMask(name) })));
  return { people, ids: [...indexOf.keys()], indexOf, byName, names };
}

function shortensNick(word: string, p: Participant, minPrefix: number): boolean {
  return word === p.head || word === p.core || (word.length >= minPrefix && p.core.startsWith(word));
}

/** Whom an opening token ("alice:") stands for: someone's full name first, else the first whose nick it shortens. */
function resolveLead(token: string | null, cast: Cast): number {
  if (token === null) return -1;
  const exact = cast.byName.get(token);
  if (exact !== undefined) return exact;
  const core = token.split(NON_ALPHANUMERIC).join("");
  if (core.length === 0) return -1;
  for (const p of cast.people) if (shortensNick(core, p, MIN_NICK_PREFIX)) return p.index;
  return -1;
}

function addOnce(list: number[], index: number): void {
  if (!list.includes(index)) list.push(index);
}

/** Whom message `m` (its text `normalized`, whose charMask is `chars`) addresses and names. */
export function addressing(cast: Cast, m: StoredMessage, normalized: string, chars: number): Addressing {
  const author = cast.indexOf.get(m.authorId)!;
  let lead = resolveLead(leadingAddressee(normalized), cast);
  const named: number[] = [];
  for (const id of m.mentions ?? []) addOnce(named, cast.indexOf.get(id)!);
  if (lead >= 0) addOnce(named, lead);
  for (const { index, name, chars: needs } of cast.names) {
    // A name can be in the text only if all its letters and digits are: one AND spares most searches.
    if (index === author || (needs & chars) !== needs) continue;
    const use = nameUse(normalized, name);
    if (use === null) continue;
    addOnce(named, index);
    if (use === "address" && lead < 0) lead = index;
  }
  const own = named.indexOf(author);
  if (own >= 0) named.splice(own, 1);
  return { lead: lead === author ? -1 : lead, named };
}
