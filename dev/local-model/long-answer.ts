/**
 * @module
 * A generated answer of about N tokens (paragraphs of plain sentences, a bullet list and a short code block, so
 * that streaming and splitting meet the markdown they must keep whole), and the pieces a stream sends it in.
 */
import { countTokens } from "../../lib/context/tokens.ts";

const SENTENCES = [
  "The short answer is that it depends on how often the data changes.",
  "A cache in front of the database keeps the common reads fast.",
  "Writes still go to the database first, so nothing is lost.",
  "When the cache misses, the request costs one extra round trip.",
  "Measure before and after, and keep the numbers with the change.",
  "Most teams start with a five-minute expiry and tune it from there.",
];
const LIST = "\n\n- keep it simple\n- measure twice\n- write it down\n\n";
const CODE = "\n\n```ts\nconst ttl = 300; // seconds\n```\n\n";

export function longAnswer(tokens: number): string {
  let text = "";
  // Counting the growing text at every step is quadratic: add up the parts' counts, and count the whole text
  // only when that sum says the length is reached.
  let estimate = 0;
  for (let i = 0; estimate < tokens || countTokens(text) < tokens; i++) {
    let part = (text && !text.endsWith("\n") ? " " : "") + SENTENCES[i % SENTENCES.length];
    if (i % 12 === 5) part += LIST;
    else if (i % 12 === 11) part += CODE;
    text += part;
    estimate += countTokens(part);
  }
  return text.trim();
}

/** The answer cut where a tokenizer would cut it: a word with its leading space, or a run of punctuation/newlines. */
export function streamPieces(text: string): string[] {
  return text.match(/\s*[\p{L}\p{N}']+|\s*[^\s\p{L}\p{N}]+|\s+/gu) ?? [];
}
