/**
 * @module
 * The local model's deterministic memory modes, so tests can assert the memory flows end to end:
 * - summary: the summary so far, then one line per person message to fold ("Name: first words"), earliest lines
 *   first, stopping at the request's token allowance (so the earliest facts stay and the summary stays bounded);
 * - facts: first-person statements of each person's own messages ("I'm…", "I am…", "My…", "I live…") rewritten in
 *   the third person as JSON citing the message, replacing a known fact of the same person that starts with the
 *   same three words.
 * Both read the requests' JSON lines (lib/llm/memory-wording.ts) as a careful model would: a message's text stays
 * that message's, whatever it contains.
 */
import * as z from "zod";
import { countTokens } from "../../lib/context/tokens.ts";
import {
  EXCHANGE_HEADING,
  FOLDED_MESSAGES_HEADING,
  KNOWN_FACTS_HEADING,
  PREVIOUS_SUMMARY_HEADING,
} from "../../lib/llm/memory-wording.ts";

/** A summary line keeps the gist, not the whole message. */
const WORDS_PER_SUMMARY_LINE = 16;
/** Used when a request names no allowance. */
const DEFAULT_SUMMARY_TOKENS = 200;
/** Words that decide whether a new fact replaces an old one ("Alice lives in …"). */
const SAME_SUBJECT_WORDS = 3;

const messageRecord = z.object({
  id: z.string(),
  author_id: z.string(),
  author_name: z.string(),
  bot: z.literal(true).optional(),
  text: z.string(),
});
const knownFactRecord = z.object({ person: z.string(), fact: z.string() });

/** The records of a section's JSON lines that have the given shape. */
function records<T>(lines: string[], schema: z.ZodType<T>): T[] {
  return lines.flatMap((line) => {
    try {
      const parsed = schema.safeParse(JSON.parse(line));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}

/** The lines after `heading` up to the next blank line. */
function section(request: string, heading: string): string[] {
  const lines = request.split("\n");
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const end = lines.indexOf("", start + 1);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

export function summaryAnswer(request: string, maxTokens = DEFAULT_SUMMARY_TOKENS): string {
  const folded = records(section(request, FOLDED_MESSAGES_HEADING), messageRecord).flatMap((m) => {
    if (m.bot) return [];
    const words = m.text.split(/\s+/).filter(Boolean);
    return [
      `${m.author_name}: ${words.slice(0, WORDS_PER_SUMMARY_LINE).join(" ")}${words.length > WORDS_PER_SUMMARY_LINE ? " …" : ""}`,
    ];
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
  sources: string[];
  replaces?: string;
}

export function factsAnswer(request: string): string {
  const known = records(section(request, KNOWN_FACTS_HEADING), knownFactRecord);
  const facts: ExtractedFact[] = [];
  for (const m of records(section(request, EXCHANGE_HEADING), messageRecord)) {
    if (m.bot) continue;
    for (const sentence of m.text.split(/(?<=[.!?])\s+/)) {
      const fact = thirdPerson(
        m.author_name,
        sentence
          .replace(/^(@\S+[,:]?\s+)+/, "")
          .replace(/[.!?]+$/, "")
          .trim(),
      );
      if (!fact) continue;
      const replaced = known.find((k) => k.person === m.author_id && sameSubject(k.fact, fact) && k.fact !== fact);
      facts.push({ person: m.author_id, fact, sources: [m.id], ...(replaced ? { replaces: replaced.fact } : {}) });
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
