/**
 * @module
 * The words of a channel view's messages, read once per decision: each content word gets a small id (a message
 * keeps the ids it uses, a word the messages that use it, so the features compare integers instead of hashing
 * strings again), and each word is checked against the participants' shortened nicks ("randabis" for
 * "randabis-laptop"). Most chat is ASCII: its words are cut out by hand, and words too short to be either are
 * never made into strings.
 */

const MIN_CONTENT_WORD = 3;
/** Shorter leading tokens are too often words ("hi:", "no,") to stand for an abbreviated nick. */
export const MIN_NICK_PREFIX = 3;
/** Inside a sentence a shortened nick must be longer still to tell it from an ordinary word. */
const MIN_NICK_PREFIX_INLINE = 4;
/** Words shorter than this are neither content words nor nicks: they are skipped unread. */
const SHORTEST_READ = Math.min(MIN_CONTENT_WORD, MIN_NICK_PREFIX);
const WORD_SPLIT = /[^\p{L}\p{N}_']+/u;
const STOPWORDS = new Set(
  ("the and for you are but not that this with have has was were what why how when where who which can could " +
    "would should will its it's i'm don't dont just get got there then than they them your yours all any one " +
    "out use using from into about try did does doing yes yeah now also some know need want like thanks thank " +
    "way too well see").split(" "),
);

/** A participant as far as shortened nicks go: letters and digits of the first name, and its first run. */
export interface Nick {
  index: number;
  /** "|quad-" → "quad". */
  core: string;
  /** "randabis" of "randabis-laptop". */
  head: string;
}

/** What one message's words give: its distinct content words, and whom it names by a shortened nick only. */
export interface MessageWords {
  words: number[];
  nicked: number[];
}

/** The characters of a word in lower-cased ASCII text: letters, digits, "_" and "'" (as WORD_SPLIT keeps). */
function isAsciiWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95 || code === 39;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** A word that stands for the nick: its head or core, or a prefix of the core at least MIN_NICK_PREFIX_INLINE long. */
function shortens(word: string, nick: Nick): boolean {
  return word === nick.head || word === nick.core || (word.length >= MIN_NICK_PREFIX_INLINE && nick.core.startsWith(word));
}

export class ViewWords {
  /** Content words by id. */
  readonly words: string[] = [];
  /** For each content word id, the indices of the messages that use it, ascending. */
  readonly uses: number[][] = [];
  private readonly ids = new Map<string, number>();
  /** Nicks long enough to be shortened, by the first character of their core (a word's first character finds them). */
  private readonly nicksByFirst = new Map<number, Nick[]>();

  constructor(nicks: readonly Nick[]) {
    for (const nick of nicks) {
      if (nick.core.length < MIN_NICK_PREFIX) continue;
      const first = nick.core.charCodeAt(0);
      const same = this.nicksByFirst.get(first);
      if (same === undefined) this.nicksByFirst.set(first, [nick]);
      else same.push(nick);
    }
  }

  /** Reads message `index` (normalized text), written by participant `author` and naming `named` as a whole word. */
  read(normalized: string, index: number, author: number, named: readonly number[]): MessageWords {
    const found: MessageWords = { words: [], nicked: [] };
    if (isAscii(normalized)) {
      let start = -1;
      for (let i = 0; i <= normalized.length; i++) {
        if (i < normalized.length && isAsciiWordCode(normalized.charCodeAt(i))) {
          if (start < 0) start = i;
          continue;
        }
        if (start >= 0 && i - start >= SHORTEST_READ) this.take(normalized.slice(start, i), index, author, named, found);
        start = -1;
      }
    } else {
      for (const word of normalized.split(WORD_SPLIT)) if (word.length >= SHORTEST_READ) this.take(word, index, author, named, found);
    }
    return found;
  }

  private take(word: string, index: number, author: number, named: readonly number[], found: MessageWords): void {
    const nicks = word.length >= MIN_NICK_PREFIX ? this.nicksByFirst.get(word.charCodeAt(0)) : undefined;
    if (nicks !== undefined) {
      for (const nick of nicks) {
        const id = nick.index;
        if (id !== author && !named.includes(id) && !found.nicked.includes(id) && shortens(word, nick)) found.nicked.push(id);
      }
    }
    if (word.length < MIN_CONTENT_WORD || STOPWORDS.has(word)) return;
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(word, id);
      this.words.push(word);
      this.uses.push([]);
    }
    const uses = this.uses[id]!;
    if (uses[uses.length - 1] !== index) {
      uses.push(index);
      found.words.push(id);
    }
  }
}
