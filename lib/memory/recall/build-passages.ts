/**
 * @module
 * Cuts a conversation into passages to remember. Left out: the bot's fixed notices (what it says about limits,
 * failures, forgetting), carrier keywords, and every message of a person who asked to be forgotten, and every answer
 * to them. A passage ends
 * before a pause, before a person's message whose id hashes to a boundary (one in four on average), or when it is
 * full. Those boundaries depend only on the messages themselves, not on where the batch starts, so indexing a
 * conversation again as it grows gives the same passage ids (the last passage grows in place).
 */
import { countTokens } from "../../context/tokens.ts";
import { shortenToTokens } from "../../context/shorten.ts";
import { speakerName } from "../../context/turns.ts";
import type { ConversationKey, StoredMessage } from "../../message.ts";
import { isBotNotice } from "../../notices.ts";
import { fnv1a } from "./fnv1a.ts";
import type { Passage, Visibility } from "./passage.ts";

export interface PassageSource {
  key: ConversationKey;
  visibility: Visibility;
  conversationId: string;
  bot: { userId: string; name: string };
  /** People who asked to be forgotten: none of their messages is ever indexed. */
  forgotten: ReadonlySet<string>;
}

/** Enough for a question and its answers; about a paragraph for the embedding model. */
const MAX_PASSAGE_MESSAGES = 8;
const MAX_PASSAGE_TOKENS = 300;
/** A pause this long starts a new passage: the talk has likely moved on. */
const PAUSE_MS = 15 * 60_000;
/** A person's message starts a passage when its id hashes to 0 modulo this. */
const BOUNDARY_EVERY = 4;
const LINE_BREAKS = /[\r\n\u2028\u2029\u0085\v\f]+/g;

export function conversationPassages(source: PassageSource, messages: StoredMessage[]): Passage[] {
  const kept = messages.filter((m) => keeps(source, m));
  const passages: Passage[] = [];
  let run: StoredMessage[] = [];
  let runTokens = 0;
  for (const m of kept) {
    const tokens = countTokens(messageLine(source, m));
    const previous = run.at(-1);
    const boundary =
      previous !== undefined &&
      (m.ts - previous.ts > PAUSE_MS ||
        (isPerson(source, m) && fnv1a(m.id) % BOUNDARY_EVERY === 0) ||
        run.length >= MAX_PASSAGE_MESSAGES ||
        runTokens + tokens > MAX_PASSAGE_TOKENS);
    if (boundary) {
      passages.push(passageOf(source, run));
      run = [];
      runTokens = 0;
    }
    run.push(m);
    runTokens += tokens;
  }
  if (run.length > 0) passages.push(passageOf(source, run));
  return passages;
}

/**
 * One passage of exactly these messages (in order, at least one), each line cut to the passage's size. Its people
 * are everyone it is about: who wrote in it, and whom the bot's messages in it answer (an answer may retell what
 * they said, even when their own message fell into the passage before).
 */
export function passageOf(source: PassageSource, messages: StoredMessage[]): Passage {
  const first = messages[0]!;
  const people = peopleAbout(source, messages);
  return {
    id: `c:${source.conversationId}:m:${first.id}`,
    text: messages.map((m) => shortenToTokens(messageLine(source, m), MAX_PASSAGE_TOKENS)).join("\n"),
    metadata: {
      ...placeMetadata(source),
      people,
      start: first.ts,
      end: messages.at(-1)!.ts,
      kind: "messages",
    },
  };
}

/**
 * The running summary as one passage per conversation (replaced at each fold). `people` must name everyone the
 * summary may speak of, every participant so far, so that "forget me" finds it; null when one of them asked to be
 * forgotten (a summary cannot leave their part out).
 */
export function summaryPassage(
  source: PassageSource,
  summary: string,
  span: { start: number; end: number },
  people: string[],
): Passage | null {
  if (people.some((id) => source.forgotten.has(id))) return null;
  return {
    id: `c:${source.conversationId}:summary`,
    text: shortenToTokens(summary, MAX_PASSAGE_TOKENS),
    metadata: { ...placeMetadata(source), people, ...span, kind: "summary" },
  };
}

/**
 * `Name: text`, the bot by its name: how passages and recall queries read. One line per message: the line breaks
 * of a text become spaces and a name is one short line, so no text can start a line that reads as someone else's.
 */
export function messageLine(source: Pick<PassageSource, "bot">, m: StoredMessage): string {
  const name = m.role === "assistant" || m.authorId === source.bot.userId ? source.bot.name : speakerName(m.authorName);
  return `${name}: ${m.text.replace(LINE_BREAKS, " ")}`;
}

function isPerson(source: Pick<PassageSource, "bot">, m: StoredMessage): boolean {
  return m.role === "user" && m.authorId !== source.bot.userId;
}

/** Everyone `messages` are about, as a passage of them names its people. */
export function peopleAbout(source: Pick<PassageSource, "bot">, messages: StoredMessage[]): string[] {
  return [...new Set(messages.flatMap((m) => aboutWhom(source, m)))];
}

/** The people a message is about: its author, or for the bot's answer, the person it answers. */
function aboutWhom(source: Pick<PassageSource, "bot">, m: StoredMessage): string[] {
  if (isPerson(source, m)) return [m.authorId];
  return m.replyToAuthorId !== undefined && m.replyToAuthorId !== source.bot.userId ? [m.replyToAuthorId] : [];
}

function keeps(source: PassageSource, m: StoredMessage): boolean {
  if (m.noReply || m.text.trim() === "") return false;
  if (!isPerson(source, m) && isBotNotice(m.text)) return false;
  return aboutWhom(source, m).every((person) => !source.forgotten.has(person));
}

function placeMetadata(source: PassageSource) {
  const { platform, tenant, channel, thread } = source.key;
  return {
    platform,
    tenant,
    channel,
    ...(thread ? { thread } : {}),
    visibility: source.visibility,
    conversation: source.conversationId,
  };
}
