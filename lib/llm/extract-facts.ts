/**
 * @module
 * Asks the model for durable facts about the people of the latest exchange, as JSON validated with zod. Output that
 * does not validate is logged (shape only, never its text) and dropped: it must never break the reply.
 */
import type OpenAI from "openai";
import * as z from "../zod.ts";
import { logger } from "../log.ts";
import { issuePaths } from "../zod-issues.ts";
import { complete } from "./completion.ts";
import {
  EXCHANGE_HEADING,
  FACTS_INSTRUCTION_TAIL,
  FACTS_SYSTEM,
  jsonLine,
  KNOWN_FACTS_HEADING,
  type KnownFactRecord,
  type MessageRecord,
} from "./memory-wording.ts";

/** A fact is a short line; anything longer is not a fact but a paragraph. */
const MAX_FACT_CHARS = 200;
/** One exchange rarely states more; a flood means the model misunderstood. */
const MAX_FACTS_PER_EXCHANGE = 10;
/** A fact comes from one message or a few of a burst; the exchange itself holds at most a dozen. */
const MAX_SOURCES = 12;
/** Room for the JSON of MAX_FACTS_PER_EXCHANGE short facts with their sources. */
export const EXTRACTION_MAX_TOKENS = 800;
/** Models like to wrap JSON in a Markdown fence. */
const CODE_FENCE = /^```(?:json)?\s*([\s\S]*?)\s*```$/;

const optionalText = z.pipe(
  z.nullish(z.string()),
  z.transform((v) => (v?.trim() ? v.trim() : undefined)),
);

const extractedFactsSchema = z.object({
  facts: z
    .array(
      z.object({
        person: z.string().check(z.trim(), z.minLength(1)),
        fact: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_FACT_CHARS)),
        /** The ids of the messages that state it: the caller keeps a fact only when they are all its person's. */
        sources: z.array(z.string().check(z.minLength(1))).check(z.minLength(1), z.maxLength(MAX_SOURCES)),
        replaces: optionalText,
      }),
    )
    .check(z.maxLength(MAX_FACTS_PER_EXCHANGE)),
});

export type ExtractedFact = z.output<typeof extractedFactsSchema>["facts"][number];

export interface FactsRequest {
  /** What is known already, so the model can say which fact a new one replaces. */
  known: KnownFactRecord[];
  /** The latest exchange, oldest first. */
  exchange: MessageRecord[];
  /** Hears the tokens the call used (per-tenant budgets). */
  onUsage?: (tokens: number) => void;
}

/** The facts the model found; null when its output was not valid (logged as `facts_output_invalid`). */
export async function extractFacts(client: OpenAI, model: string, req: FactsRequest): Promise<ExtractedFact[] | null> {
  const content = [
    ...(req.known.length > 0 ? [KNOWN_FACTS_HEADING, ...req.known.map(jsonLine), ""] : []),
    EXCHANGE_HEADING,
    ...req.exchange.map(jsonLine),
    "",
    FACTS_INSTRUCTION_TAIL,
  ].join("\n");
  const text = await complete(client, {
    model,
    messages: [
      { role: "system", content: FACTS_SYSTEM },
      { role: "user", content },
    ],
    maxTokens: EXTRACTION_MAX_TOKENS,
    ...(req.onUsage ? { onUsage: req.onUsage } : {}),
  });
  return parseExtractedFacts(text);
}

export function parseExtractedFacts(text: string): ExtractedFact[] | null {
  const trimmed = text.trim();
  const body = CODE_FENCE.exec(trimmed)?.[1] ?? trimmed;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    logger.warn("facts_output_invalid", { reason: "not_json", chars: text.length });
    return null;
  }
  const parsed = extractedFactsSchema.safeParse(json);
  if (!parsed.success) {
    logger.warn("facts_output_invalid", {
      reason: "schema",
      chars: text.length,
      fields: issuePaths(parsed.error),
    });
    return null;
  }
  return parsed.data.facts;
}
