/**
 * @module
 * The words of a channel view's messages, read once per decision: each content word gets a small id (a message
 * keeps the ids it uses, a word the messages that use it, so the features compare integers instead of hashing
 * strings again), and each word is checked against the participants' shortened nicks ("randabis" for
 * "randabis-laptop"). Most chat is ASCII: its words are cut out by hand, and words too short to be either are
 * never made into strings.
 */
import { HASH_START, WordTable, hashOf, hashStep, sameText } from "./word-table.ts";

const MIN_CONTENT_WORD = 3;
/** Shorter leading tokens are too often words ("hi:", "no,") to stand for an abbreviated nick. */
export const MIN_NICK_PREFIX = 3;
/** Inside a sentence a shortened nick must be longer still to tell it from an ordinary word. */
const MIN_NICK_PREFIX_INLINE = 4;
/** Words shorter than this are neither content words nor nicks: they are skipped unread. */
const SHORTEST_READ = Math.min(MIN_CONTENT_WORD, MIN_NICK_PREFIX);
const WORD_SPLIT = /[^\p{L}\p{N}_']+/u;
const STOPWORD_LIST = (
  ("the and for you are but not that this with have has was were what why how when where who which can could " +
    "would should will its it's i'm don't dont just get got there then than they them your yours all any one " +
    "out use using from into about try did does doing yes yeah now also some know need want like thanks thank " +
    "way too well see").split(" ")
);
const STOPWORDS = new WordTable(STOPWORD_LIST.length, STOPWORD_LIST);

/** A participant as far as shortened nicks go: letters and digits of the first name, and its first run. */
export interface Nick {
  index: number;
  /** "|quad-" → "quad". */
  core: string;
  /** "randabis" of "randabis-laptop". */
  head: string;
}

/** What one message's words give: its distinct content words, whom it names by a shortened nick (its author
 * aside), and which letters and digits it has (charMask). */
export interface MessageWords {
  words: number[];
  nicked: number[];
  chars: number;
}

/** The bit of the marks that end an opening address ("alice:", "bob,", "carol>"): see names.ts leadingAddressee. */
export const ADDRESS_MARK = 1 << 31;

/** One bit per lower-case ASCII letter, five for the digits, ADDRESS_MARK for ":,>", none for anything else. */
function charBit(code: number): number {
  if (code >= 97 && code <= 122) return 1 << (code - 97);
  if (code >= 48 && code <= 57) return 1 << (26 + ((code - 48) % 5));
  return code === 58 || code === 44 || code === 62 ? ADDRESS_MARK : 0;
}

/** Per ASCII code: its charBit, and whether it is a character of a word in lower-cased text (as WORD_SPLIT keeps). */
const ASCII_BITS = Int32Array.from({ length: 128 }, (_, code) => charBit(code));
const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, code) =>
  (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95 || code === 39 ? 1 : 0);

/** The spans of the words of the message being read (start, end, hash each), until it is known to be ASCII. */
let spans = new Int32Array(3 * 64);

/** Appends a span at `count` (a plain function: a closure would move the scan's variables off the registers). */
function keepSpan(count: number, start: number, end: number, hash: number): number {
  if (count + 3 > spans.length) spans = Int32Array.from({ length: 2 * spans.length }, (_, k) => spans[k] ?? 0);
  spans[count] = start;
  spans[count + 1] = end;
  spans[count + 2] = hash;
  return count + 3;
}

/**
 * The letters and digits of a text as bits: a name can occur in a text only if its bits are all in the text's, so
 * one AND spares most substring searches for names.
 */
export function charMask(text: string): number {
  let mask = 0;
  for (let i = 0; i < text.length; i++) mask |= charBit(text.charCodeAt(i));
  return mask;
}

/** Whether text[start, end) is a prefix of `word`. */
function prefixOf(text: string, start: number, end: number, word: string): boolean {
  if (end - start > word.length) return false;
  for (let i = start; i < end; i++) if (text.charCodeAt(i) !== word.charCodeAt(i - start)) return false;
  return true;
}

/** text[start, end) stands for the nick: its head or core, or a prefix of the core at least MIN_NICK_PREFIX_INLINE long. */
function shortens(text: string, start: number, end: number, nick: Nick): boolean {
  return sameText(text, start, end, nick.head) || sameText(text, start, end, nick.core) ||
    (end - start >= MIN_NICK_PREFIX_INLINE && prefixOf(text, start, end, nick.core));
}

/**
 * The content words of a view's messages: ids in `table`, and for each id its uses, newest first, as a list
 * threaded through flat arrays (lastUse[id], then usePrev[use] until -1; useMessage[use] is the message index).
 */
export class ViewWords {
  readonly table: WordTable;
  readonly lastUse: number[] = [];
  readonly usePrev: number[] = [];
  readonly useMessage: number[] = [];
  /**
   * Nicks long enough to be shortened, by the first character of their core (a word's first character finds
   * them): ASCII ones in an array, the rest in a map.
   */
  private readonly nicksByAscii: (Nick[] | undefined)[] = new Array(128).fill(undefined);
  private readonly nicksByOther = new Map<number, Nick[]>();

  constructor(nicks: readonly Nick[], textLength: number) {
    // Every content word takes at least MIN_CONTENT_WORD + 1 characters (its separator): the table seldom grows.
    this.table = new WordTable(textLength / (MIN_CONTENT_WORD + 1));
    for (const nick of nicks) {
      if (nick.core.length < MIN_NICK_PREFIX) continue;
      const first = nick.core.charCodeAt(0);
      const same = this.nicksStartingWith(first);
      if (same !== undefined) same.push(nick);
      else if (first <= 0x7f) this.nicksByAscii[first] = [nick];
      else this.nicksByOther.set(first, [nick]);
    }
  }

  /** Reads message `index` (normalized text), written by participant `author`. */
  read(text: string, index: number, author: number): MessageWords {
    const found: MessageWords = { words: [], nicked: [], chars: -1 };
    let chars = 0;
    let count = 0;
    let start = -1;
    let hash = HASH_START;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code > 0x7f) {
        for (const word of text.split(WORD_SPLIT)) {
          if (word.length >= SHORTEST_READ) this.take(word, 0, word.length, hashOf(word), index, author, found);
        }
        return found;
      }
      chars |= ASCII_BITS[code]!;
      if (ASCII_WORD[code] === 1) {
        if (start < 0) {
          start = i;
          hash = HASH_START;
        }
        hash = hashStep(hash, code);
        continue;
      }
      if (start >= 0 && i - start >= SHORTEST_READ) count = keepSpan(count, start, i, hash);
      start = -1;
    }
    if (start >= 0 && text.length - start >= SHORTEST_READ) count = keepSpan(count, start, text.length, hash);
    for (let k = 0; k < count; k += 3) this.take(text, spans[k]!, spans[k + 1]!, spans[k + 2]!, index, author, found);
    found.chars = chars;
    return found;
  }

  private nicksStartingWith(code: number): Nick[] | undefined {
    return code <= 0x7f ? this.nicksByAscii[code] : this.nicksByOther.get(code);
  }

  /** Takes the word text[start, end) (hashed `hash`) of message `index`. */
  private take(text: string, start: number, end: number, hash: number, index: number, author: number, found: MessageWords): void {
    const nicks = end - start >= MIN_NICK_PREFIX ? this.nicksStartingWith(text.charCodeAt(start)) : undefined;
    if (nicks !== undefined) {
      for (const nick of nicks) {
        const id = nick.index;
        if (id !== author && !found.nicked.includes(id) && shortens(text, start, end, nick)) found.nicked.push(id);
      }
    }
    if (end - start < MIN_CONTENT_WORD || STOPWORDS.find(text, start, end, hash) >= 0) return;
    const id = this.table.add(text, start, end, hash);
    const last = id < this.lastUse.length ? this.lastUse[id]! : -1;
    if (last >= 0 && this.useMessage[last] === index) return;
    this.lastUse[id] = this.useMessage.length;
    this.usePrev.push(last);
    this.useMessage.push(index);
    found.words.push(id);
  }
}
