/**
 * @module
 * A read of the recent channel as a live bot sees it: who spoke when, whom each message addresses by name,
 * and the content words of each message. Built once per decision; the signals read it. Participants are small
 * integers (the bot is 0, then authors in order of their first message, then people only mentioned), so that
 * the features, which the reply chains compute for every candidate of every recent message, compare numbers.
 */
import type { BotIdentity, ConversationState, StoredMessage } from "../message.ts";
import { normalizeText } from "./names.ts";
import { type Cast, addressing, readCast } from "./participants.ts";
import { ViewWords, charMask } from "./words.ts";

/**
 * The decider reads only the latest messages of the window the store hands over: older ones barely move a
 * decision, and each costs CPU on every inbound message (bench/decision prints the cost).
 */
const VIEW_MESSAGES = 20;

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

/** The participants of the latest messages, read before the messages themselves: the rules may need no more. */
export interface ChannelReader {
  recent: readonly StoredMessage[];
  botId: string;
  cast: Cast;
}

export function channelReader(state: ConversationState, bot: BotIdentity): ChannelReader {
  const recent = state.recent.length > VIEW_MESSAGES ? state.recent.slice(-VIEW_MESSAGES) : state.recent;
  return { recent, botId: bot.userId, cast: readCast(recent, bot) };
}

/** The participant the message being decided addresses (ChannelMessage.leadId of the view's current message). */
export function currentLeadId(reader: ChannelReader): string | null {
  const current = reader.recent[reader.recent.length - 1];
  if (current === undefined) return null;
  const normalized = normalizeText(current.text);
  const { lead } = addressing(reader.cast, current, normalized, charMask(normalized));
  return lead < 0 ? null : reader.cast.ids[lead]!;
}

export function readView(reader: ChannelReader): ChannelView {
  const { recent, cast } = reader;
  const words = new ViewWords(cast.people);
  const messages = recent.map((m, index): ChannelMessage => {
    const normalized = normalizeText(m.text);
    const author = cast.indexOf.get(m.authorId)!;
    const read = words.read(normalized, index, author);
    const { lead, named } = addressing(cast, m, normalized, read.chars);
    const nicked = read.nicked.filter((k) => !named.includes(k));
    return {
      authorId: m.authorId,
      author,
      ts: m.ts,
      leadId: lead < 0 ? null : cast.ids[lead]!,
      lead,
      named,
      nicked,
      words: read.words,
      isQuestion: normalized.includes("?"),
      normalized,
    };
  });
  const current = messages[messages.length - 1];
  if (current === undefined) throw new Error("ConversationState.recent must end with the message being decided");
  return { messages, current, botId: reader.botId, ids: cast.ids, indexOf: cast.indexOf, words };
}

export function readChannel(state: ConversationState, bot: BotIdentity): ChannelView {
  return readView(channelReader(state, bot));
}
