/**
 * @module
 * A read of the recent channel as a live bot sees it: who spoke when, whom each message addresses by name,
 * and the content words of each message. Built once per decision; the signals read it.
 */
import type { BotIdentity } from "../message.ts";
import type { ConversationState } from "../conversation/types.ts";
import { containsNormalizedName, leadingAddressee, normalizeText } from "./names.ts";

/** Shorter leading tokens are too often words ("hi:", "no,") to stand for an abbreviated nick. */
const MIN_NICK_PREFIX = 3;
const MIN_CONTENT_WORD = 3;
const WORD_SPLIT = /[^\p{L}\p{N}_']+/u;
const STOPWORDS = new Set(
  ("the and for you are but not that this with have has was were what why how when where who which can could " +
    "would should will its it's i'm don't dont just get got there then than they them your yours all any one " +
    "out use using from into about try did does doing yes yeah now also some know need want like thanks thank " +
    "way too well see").split(" "),
);

export interface ChannelMessage {
  authorId: string;
  ts: number;
  /** The participant the message opens with ("alice: ..."), if it names one. */
  leadId: string | null;
  /** Every participant the message names as a whole word, the opening one included. */
  namedIds: Set<string>;
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

function contentWords(normalized: string): Set<string> {
  const words = new Set<string>();
  for (const word of normalized.split(WORD_SPLIT)) {
    if (word.length >= MIN_CONTENT_WORD && !STOPWORDS.has(word)) words.add(word);
  }
  return words;
}

function participantNames(state: ConversationState, bot: BotIdentity): Map<string, string[]> {
  const names = new Map<string, string[]>();
  names.set(bot.userId, [bot.name, ...bot.aliases].map((n) => normalizeText(n.trim())).filter((n) => n.length > 0));
  for (const m of state.recent) {
    if (!names.has(m.authorId)) names.set(m.authorId, [normalizeText(m.authorName.trim())]);
  }
  return names;
}

function resolveLead(token: string | null, names: Map<string, string[]>): string | null {
  if (token === null) return null;
  let prefixMatch: string | null = null;
  for (const [id, list] of names) {
    for (const name of list) {
      if (name === token) return id;
      if (prefixMatch === null && token.length >= MIN_NICK_PREFIX && name.startsWith(token)) prefixMatch = id;
    }
  }
  return prefixMatch;
}

export function readChannel(state: ConversationState, bot: BotIdentity): ChannelView {
  const names = participantNames(state, bot);
  const messages = state.recent.map((m): ChannelMessage => {
    const normalized = normalizeText(m.text);
    const leadId = resolveLead(leadingAddressee(normalized), names);
    const namedIds = new Set<string>(m.mentions ?? []);
    if (leadId !== null) namedIds.add(leadId);
    for (const [id, list] of names) {
      if (id !== m.authorId && list.some((name) => containsNormalizedName(normalized, name))) namedIds.add(id);
    }
    namedIds.delete(m.authorId);
    return {
      authorId: m.authorId,
      ts: m.ts,
      leadId: leadId === m.authorId ? null : leadId,
      namedIds,
      contentWords: contentWords(normalized),
      isQuestion: normalized.includes("?"),
      normalized,
    };
  });
  const current = messages[messages.length - 1];
  if (current === undefined) throw new Error("ConversationState.recent must end with the message being decided");
  return { messages, current, botId: bot.userId };
}
