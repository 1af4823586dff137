/**
 * @module
 * A read of the recent channel as a live bot sees it: who spoke when, whom each message addresses by name,
 * and the content words of each message. Built once per decision; the signals read it. Participants are small
 * integers (the bot is 0, then authors in order of their first message, then people only mentioned), so that
 * the features, which the reply chains compute for every candidate of every recent message, compare numbers.
 */
import type { BotIdentity } from "../message.ts";
import type { ConversationState, StoredMessage } from "../conversation/types.ts";
import { nameUse } from "./address.ts";
import { leadingAddressee, normalizeText } from "./names.ts";
import { MIN_NICK_PREFIX, type Nick, ViewWords, charMask } from "./words.ts";

const NON_ALPHANUMERIC = /[^\p{L}\p{N}]+/u;
/**
 * The decider reads only the latest messages of the window the store hands over: older ones barely move a
 * decision, and each costs CPU on every inbound message (bench/decision prints the cost).
 */
export const VIEW_MESSAGES = 20;
/** The bot's participant index in every view. */
export const BOT = 0;

export interface ChannelMessage {
  authorId: string;
  /** The author's participant index. */
  author: number;
  ts: number;
  /** The participant the message addresses ("alice: ...", "hey alice", "thanks alice!"), if it names one. */
  leadId: string | null;
  /** The same as a participant index, -1 when none. */
  lead: number;
  /** Every participant the message names as a whole word or mentions, the opening one included (never its author). */
  named: number[];
  /** Participants the message names by a shortened nick only ("randabis" for "randabis-laptop"). */
  nicked: number[];
  /** Its distinct content words, as ids into ChannelView.words. */
  words: number[];
  isQuestion: boolean;
  normalized: string;
}

export interface ChannelView {
  /** Oldest first; the message being decided is last. */
  messages: ChannelMessage[];
  current: ChannelMessage;
  botId: string;
  /** Participant ids by index. */
  ids: string[];
  indexOf: Map<string, number>;
  /** Content words by id, and for each the messages that use it (ViewWords). */
  words: ViewWords;
}

interface Participant extends Nick {
  /** Full names, normalized: the nick or display name, and for the bot its aliases. */
  names: string[];
}

function participant(index: number, names: string[]): Participant {
  const first = names[0] ?? "";
  const parts = first.split(NON_ALPHANUMERIC).filter((p) => p.length > 0);
  return { index, names, core: parts.join(""), head: parts[0] ?? "" };
}

function participants(recent: readonly StoredMessage[], bot: BotIdentity): { people: Participant[]; indexOf: Map<string, number> } {
  const botNames = [bot.name, ...bot.aliases].map((n) => normalizeText(n.trim())).filter((n) => n.length > 0);
  const people = [participant(BOT, botNames)];
  const indexOf = new Map([[bot.userId, BOT]]);
  const add = (id: string, names: string[]): void => {
    if (indexOf.has(id)) return;
    indexOf.set(id, people.length);
    people.push(participant(people.length, names));
  };
  for (const m of recent) add(m.authorId, [normalizeText(m.authorName.trim())]);
  for (const m of recent) for (const id of m.mentions ?? []) add(id, []);
  return { people, indexOf };
}

function shortensNick(word: string, p: Participant, minPrefix: number): boolean {
  return word === p.head || word === p.core || (word.length >= minPrefix && p.core.startsWith(word));
}

/** Whom an opening token ("alice:") stands for: someone's full name first, else the first whose nick it shortens. */
function resolveLead(token: string | null, people: readonly Participant[], byName: Map<string, number>): number {
  if (token === null) return -1;
  const exact = byName.get(token);
  if (exact !== undefined) return exact;
  const core = token.split(NON_ALPHANUMERIC).join("");
  if (core.length === 0) return -1;
  for (const p of people) if (shortensNick(core, p, MIN_NICK_PREFIX)) return p.index;
  return -1;
}

function addOnce(list: number[], index: number): void {
  if (!list.includes(index)) list.push(index);
}

export function readChannel(state: ConversationState, bot: BotIdentity): ChannelView {
  const recent = state.recent.length > VIEW_MESSAGES ? state.recent.slice(-VIEW_MESSAGES) : state.recent;
  const { people, indexOf } = participants(recent, bot);
  const byName = new Map<string, number>();
  for (const p of people) for (const name of p.names) if (!byName.has(name)) byName.set(name, p.index);
  const ids = [...indexOf.keys()];
  let textLength = 0;
  for (const m of recent) textLength += m.text.length;
  const words = new ViewWords(people, textLength);
  const names = people.flatMap((p) => p.names.map((name) => ({ index: p.index, name, chars: charMask(name) })));
  const messages = recent.map((m, index): ChannelMessage => {
    const normalized = normalizeText(m.text);
    const author = indexOf.get(m.authorId)!;
    const read = words.read(normalized, index, author);
    let lead = resolveLead(leadingAddressee(normalized), people, byName);
    const named: number[] = [];
    for (const id of m.mentions ?? []) addOnce(named, indexOf.get(id)!);
    if (lead >= 0) addOnce(named, lead);
    for (const { index: k, name, chars } of names) {
      if (k === author || (chars & read.chars) !== chars) continue;
      const use = nameUse(normalized, name);
      if (use === null) continue;
      addOnce(named, k);
      if (use === "address" && lead < 0) lead = k;
    }
    const own = named.indexOf(author);
    if (own >= 0) named.splice(own, 1);
    if (lead === author) lead = -1;
    return {
      authorId: m.authorId,
      author,
      ts: m.ts,
      leadId: lead < 0 ? null : ids[lead]!,
      lead,
      named,
      nicked: read.nicked.filter((k) => !named.includes(k)),
      words: read.words,
      isQuestion: normalized.includes("?"),
      normalized,
    };
  });
  const current = messages[messages.length - 1];
  if (current === undefined) throw new Error("ConversationState.recent must end with the message being decided");
  return { messages, current, botId: bot.userId, ids, indexOf, words };
}
