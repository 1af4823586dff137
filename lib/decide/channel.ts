/**
 * @module
 * A read of the recent channel as a live bot sees it: who spoke when, whom each message addresses by name,
 * and the content words of each message. Built once per decision; the signals read it.
 */
import type { BotIdentity } from "../message.ts";
import type { ConversationState, StoredMessage } from "../conversation/types.ts";
import { nameUse } from "./address.ts";
import { leadingAddressee, normalizeText } from "./names.ts";

/** Shorter leading tokens are too often words ("hi:", "no,") to stand for an abbreviated nick. */
const MIN_NICK_PREFIX = 3;
/** Inside a sentence a shortened nick must be longer still to tell it from an ordinary word. */
const MIN_NICK_PREFIX_INLINE = 4;
const NON_ALPHANUMERIC = /[^\p{L}\p{N}]+/u;
const MIN_CONTENT_WORD = 3;
/**
 * The decider reads only the latest messages of the window the store hands over: older ones barely move a
 * decision, and each costs CPU on every inbound message (bench/decision prints the cost).
 */
export const VIEW_MESSAGES = 20;
const WORD_SPLIT = /[^\p{L}\p{N}_']+/u;
/** The same split for ASCII text, without Unicode property classes (the common case, and cheaper). */
const ASCII_WORD_SPLIT = /[^a-z0-9_']+/;
const ASCII = /^[\x00-\x7f]*$/;
const STOPWORDS = new Set(
  ("the and for you are but not that this with have has was were what why how when where who which can could " +
    "would should will its it's i'm don't dont just get got there then than they them your yours all any one " +
    "out use using from into about try did does doing yes yeah now also some know need want like thanks thank " +
    "way too well see").split(" "),
);

export interface ChannelMessage {
  authorId: string;
  ts: number;
  /** The participant the message addresses ("alice: ...", "hey alice", "thanks alice!"), if it names one. */
  leadId: string | null;
  /** Every participant the message names as a whole word, the opening one included. */
  namedIds: Set<string>;
  /** Participants the message names by a shortened nick only ("randabis" for "randabis-laptop"). */
  nickedIds: Set<string>;
  contentWords: Set<string>;
  isQuestion: boolean;
  normalized: string;
}

export interface ChannelView {
  /** Oldest first; the message being decided is last. */
  messages: ChannelMessage[];
  current: ChannelMessage;
  botId: string;
}

function contentWords(all: string[]): Set<string> {
  const words = new Set<string>();
  for (const word of all) {
    if (word.length >= MIN_CONTENT_WORD && !STOPWORDS.has(word)) words.add(word);
  }
  return words;
}

interface Participant {
  /** Full names, normalized: the nick or display name, and for the bot its aliases. */
  names: string[];
  /** Letters and digits of the first name only ("|quad-" → "quad"), how people shorten a nick. */
  core: string;
  /** The first letters-and-digits run of the first name ("randabis" of "randabis-laptop"). */
  head: string;
}

function participant(names: string[]): Participant {
  const first = names[0] ?? "";
  const parts = first.split(NON_ALPHANUMERIC).filter((p) => p.length > 0);
  return { names, core: parts.join(""), head: parts[0] ?? "" };
}

function participants(recent: readonly StoredMessage[], bot: BotIdentity): Map<string, Participant> {
  const all = new Map<string, Participant>();
  const botNames = [bot.name, ...bot.aliases].map((n) => normalizeText(n.trim())).filter((n) => n.length > 0);
  all.set(bot.userId, participant(botNames));
  for (const m of recent) {
    if (!all.has(m.authorId)) all.set(m.authorId, participant([normalizeText(m.authorName.trim())]));
  }
  return all;
}

function shortensNick(word: string, p: Participant, minPrefix: number): boolean {
  return word === p.head || word === p.core || (word.length >= minPrefix && p.core.startsWith(word));
}

function resolveLead(token: string | null, all: Map<string, Participant>): string | null {
  if (token === null) return null;
  let shortened: string | null = null;
  const core = token.split(NON_ALPHANUMERIC).join("");
  for (const [id, p] of all) {
    if (p.names.includes(token)) return id;
    if (shortened === null && core.length > 0 && shortensNick(core, p, MIN_NICK_PREFIX)) shortened = id;
  }
  return shortened;
}

/**
 * Every word that stands for a participant's shortened nick inside a sentence, to the ids it stands for: the
 * head and core of each nick, and each prefix of the core at least MIN_NICK_PREFIX_INLINE long. Built once per
 * decision so that each word of each message is one lookup.
 */
function nickTable(all: Map<string, Participant>): Map<string, string[]> {
  const table = new Map<string, string[]>();
  const add = (word: string, id: string): void => {
    if (word.length < MIN_NICK_PREFIX) return;
    const ids = table.get(word);
    if (ids === undefined) table.set(word, [id]);
    else if (!ids.includes(id)) ids.push(id);
  };
  for (const [id, p] of all) {
    if (p.core.length < MIN_NICK_PREFIX) continue;
    add(p.head, id);
    for (let n = MIN_NICK_PREFIX_INLINE; n <= p.core.length; n++) add(p.core.slice(0, n), id);
    add(p.core, id);
  }
  return table;
}

function nickedIn(words: string[], author: string, table: Map<string, string[]>, named: Set<string>): Set<string> {
  const found = new Set<string>();
  for (const word of words) {
    const ids = table.get(word);
    if (ids === undefined) continue;
    for (const id of ids) if (id !== author && !named.has(id)) found.add(id);
  }
  return found;
}

export function readChannel(state: ConversationState, bot: BotIdentity): ChannelView {
  const recent = state.recent.length > VIEW_MESSAGES ? state.recent.slice(-VIEW_MESSAGES) : state.recent;
  const all = [...participants(recent, bot)];
  const byId = new Map(all);
  const nicks = nickTable(byId);
  const messages = recent.map((m): ChannelMessage => {
    const normalized = normalizeText(m.text);
    let leadId = resolveLead(leadingAddressee(normalized), byId);
    const namedIds = new Set<string>(m.mentions ?? []);
    if (leadId !== null) namedIds.add(leadId);
    for (let k = 0; k < all.length; k++) {
      const [id, p] = all[k]!;
      if (id === m.authorId) continue;
      for (const name of p.names) {
        const use = nameUse(normalized, name);
        if (use === null) continue;
        namedIds.add(id);
        if (use === "address") leadId ??= id;
      }
    }
    namedIds.delete(m.authorId);
    const words = normalized.split(ASCII.test(normalized) ? ASCII_WORD_SPLIT : WORD_SPLIT);
    return {
      authorId: m.authorId,
      ts: m.ts,
      leadId: leadId === m.authorId ? null : leadId,
      namedIds,
      nickedIds: nickedIn(words, m.authorId, nicks, namedIds),
      contentWords: contentWords(words),
      isQuestion: normalized.includes("?"),
      normalized,
    };
  });
  const current = messages[messages.length - 1];
  if (current === undefined) throw new Error("ConversationState.recent must end with the message being decided");
  return { messages, current, botId: bot.userId };
}
