/**
 * @module
 * The local model's deterministic memory modes, so tests can assert the memory flows end to end:
 * - summary: the summary so far, then one line per person message to fold ("Name: first words"), earliest lines
 *   first, stopping at the request's token allowance (so the earliest facts stay and the summary stays bounded);
 * - facts: first-person statements of the exchange ("I'm…", "I am…", "My…", "I live…") rewritten in the third
 *   person as JSON, replacing a known fact of the same person that starts with the same three words.
 */
import { countTokens } from "../../lib/context/tokens.ts";
import { EXCHANGE_HEADING, FOLDED_MESSAGES_HEADING, KNOWN_FACTS_HEADING, PREVIOUS_SUMMARY_HEADING } from "../../lib/llm/memory-wording.ts";

/** A summary line keeps the gist, not the whole message. */
const WORDS_PER_SUMMARY_LINE = 16;
/** Used when a request names no allowance. */
const DEFAULT_SUMMARY_TOKENS = 200;
/** `[U123] Alice: text`, as lib/llm/memory-wording.ts writes a person's line. */
const PERSON_LINE = /^\[([^\]]+)\] ([^:]+): (.*)$/;
/** Words that decide whether a new fact replaces an old one ("Alice lives in …"). */
const SAME_SUBJECT_WORDS = 3;

/** The lines after `heading` up to the next blank line. */
function section(request: string, heading: string): string[] {
  const lines = request.split("\n");
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const end = lines.indexOf("", start + 1);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

export function summaryAnswer(request: string, maxTokens = DEFAULT_SUMMARY_TOKENS): string {
  const folded = section(request, FOLDED_MESSAGES_HEADING).flatMap((line) => {
    const person = PERSON_LINE.exec(line);
    if (!person) return [];
    const words = person[3]!.split(/\s+/).filter(Boolean);
    return [`${person[2]}: ${words.slice(0, WORDS_PER_SUMMARY_LINE).join(" ")}${words.length > WORDS_PER_SUMMARY_LINE ? " …" : ""}`];
  });
  const kept: string[] = [];
  for (const line of [...section(request, PREVIOUS_SUMMARY_HEADING), ...folded]) {
    if (countTokens([...kept, line].join("\n")) > maxTokens) break;
    kept.push(line);
  }
  return kept.join("\n");
}

interface ExtractedFact {
  person: string;
  fact: string;
  replaces?: string;
}

export function factsAnswer(request: string): string {
  const known = section(request, KNOWN_FACTS_HEADING).flatMap((line) => {
    const m = PERSON_LINE.exec(line);
    return m ? [{ person: m[1]!, fact: m[3]! }] : [];
  });
  const facts: ExtractedFact[] = [];
  for (const line of section(request, EXCHANGE_HEADING)) {
    const m = PERSON_LINE.exec(line);
    if (!m) continue;
    const [, person, name, text] = m as unknown as [string, string, string, string];
    for (const sentence of text.split(/(?<=[.!?])\s+/)) {
      const fact = thirdPerson(name, sentence.replace(/^(@\S+[,:]?\s+)+/, "").replace(/[.!?]+$/, "").trim());
      if (!fact) continue;
      const replaced = known.find((k) => k.person === person && sameSubject(k.fact, fact) && k.fact !== fact);
      facts.push({ person, fact, ...(replaced ? { replaces: replaced.fact } : {}) });
    }
  }
  return JSON.stringify({ facts });
}

function thirdPerson(name: string, sentence: string): string | null {
  let m = /^(?:i'm|i am)\s+(.+)$/i.exec(sentence);
  if (m) return `${name} is ${m[1]}`;
  m = /^my\s+(.+)$/i.exec(sentence);
  if (m) return `${name}'s ${m[1]}`;
  m = /^i\s+(live|work|like|love|prefer|play|speak|study)\s+(.+)$/i.exec(sentence);
  if (m) return `${name} ${m[1]!.toLowerCase()}s ${m[2]}`;
  m = /^i\s+have\s+(.+)$/i.exec(sentence);
  if (m) return `${name} has ${m[1]}`;
  return null;
}

function sameSubject(a: string, b: string): boolean {
  const head = (s: string) => s.toLowerCase().split(/\s+/).slice(0, SAME_SUBJECT_WORDS).join(" ");
  return head(a) === head(b);
}
