/**
 * @module
 * The words of a channel view's messages, read once per decision: each content word gets a small id (a message
 * keeps the ids it uses, a word the messages that use it, so the features compare integers instead of looking
 * strings up again), and each word is checked against the participants' shortened nicks ("randabis" for
 * "randabis-laptop"). Most chat is ASCII: its words are cut out by hand in the same pass that notes which letters
 * it has, and words too short to be either are never made into strings.
 */

const MIN_CONTENT_WORD = 3;
/** Shorter leading tokens are too often words ("hi:", "no,") to stand for an abbreviated nick. */
export const MIN_NICK_PREFIX = 3;
/** Inside a sentence a shortened nick must be longer still to tell it from an ordinary word. */
const MIN_NICK_PREFIX_INLINE = 4;
/** Words shorter than this are neither content words nor nicks: they are skipped unread. */
const SHORTEST_READ = Math.min(MIN_CONTENT_WORD, MIN_NICK_PREFIX);
const WORD_SPLIT = /[^\p{L}\p{N}_']+/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: every ASCII byte, controls included
const NON_ASCII = /[^\x00-\x7f]/;
const STOPWORDS = new Set(
  (
    "the and for you are but not that this with have has was were what why how when where who which can could " +
    "would should will its it's i'm don't dont just get got there then than they them your yours all any one " +
    "out use using from into about try did does doing yes yeah now also some know need want like thanks thank " +
    "way too well see"
  ).split(" "),
);

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

/** One bit per lower-case ASCII letter, five for the digits, none for anything else. */
function charBit(code: number): number {
  if (code >= 97 && code <= 122) return 1 << (code - 97);
  return code >= 48 && code <= 57 ? 1 << (26 + ((code - 48) % 5)) : 0;
}

/** Per ASCII code: its charBit, and whether it is a character of a word in lower-cased text (as WORD_SPLIT keeps). */
const ASCII_BITS = Int32Array.from({ length: 128 }, (_, code) => charBit(code));
const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, code) =>
  (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95 || code === 39 ? 1 : 0,
);

/**
 * The letters and digits of a text as bits: a name can occur in a text only if its bits are all in the text's, so
 * one AND spares most substring searches for names.
 */
export function charMask(text: string): number {
  let mask = 0;
  for (let i = 0; i < text.length; i++) mask |= charBit(text.charCodeAt(i));
  return mask;
}

/** The word stands for the nick: its head or core, or a prefix of the core at least MIN_NICK_PREFIX_INLINE long. */
function shortens(word: string, nick: Nick): boolean {
  return (
    word === nick.head || word === nick.core || (word.length >= MIN_NICK_PREFIX_INLINE && nick.core.startsWith(word))
  );
}

/**
 * The content words of a view's messages by id, and for each id its uses, newest first, as a list threaded
 * through flat arrays (lastUse[id], then usePrev[use] until -1; useMessage[use] is the message index).
 */
export class ViewWords {
  readonly words: string[] = [];
  readonly lastUse: number[] = [];
  readonly usePrev: number[] = [];
  readonly useMessage: number[] = [];
  private readonly ids = new Map<string, number>();
  /**
   * Nicks long enough to be shortened, by the first character code of their core (a word's first character finds
   * them): an array, not a Map, as every word of every message looks here.
   */
  private readonly nicksByFirst: (Nick[] | undefined)[] = [];

  constructor(nicks: readonly Nick[]) {
    for (const nick of nicks) {
      if (nick.core.length < MIN_NICK_PREFIX) continue;
      const first = nick.core.charCodeAt(0);
      const same = this.nicksByFirst[first];
      if (same !== undefined) same.push(nick);
      else this.nicksByFirst[first] = [nick];
    }
  }

  /** Reads message `index` (normalized text), written by participant `author`. */
  read(text: string, index: number, author: number): MessageWords {
    const found: MessageWords = { words: [], nicked: [], chars: -1 };
    if (NON_ASCII.test(text)) {
      for (const word of text.split(WORD_SPLIT))
        if (word.length >= SHORTEST_READ) this.take(word, index, author, found);
      return found;
    }
    let chars = 0;
    let start = -1;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (ASCII_WORD[code] === 1) {
        // Letters and digits are all word characters: the mask is built here only.
        chars |= ASCII_BITS[code]!;
        if (start < 0) start = i;
        continue;
      }
      if (start >= 0 && i - start >= SHORTEST_READ) this.take(text.slice(start, i), index, author, found);
      start = -1;
    }
    if (start >= 0 && text.length - start >= SHORTEST_READ) this.take(text.slice(start), index, author, found);
    found.chars = chars;
    return found;
  }

  private take(word: string, index: number, author: number, found: MessageWords): void {
    const nicks = word.length >= MIN_NICK_PREFIX ? this.nicksByFirst[word.charCodeAt(0)] : undefined;
    if (nicks !== undefined) {
      for (const nick of nicks) {
        const id = nick.index;
        if (id !== author && !found.nicked.includes(id) && shortens(word, nick)) found.nicked.push(id);
      }
    }
    if (word.length < MIN_CONTENT_WORD || STOPWORDS.has(word)) return;
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(word, id);
      this.words.push(word);
      this.lastUse.push(-1);
    }
    const last = this.lastUse[id]!;
    if (last >= 0 && this.useMessage[last] === index) return;
    this.lastUse[id] = this.useMessage.length;
    this.usePrev.push(last);
    this.useMessage.push(index);
    found.words.push(id);
  }
}
