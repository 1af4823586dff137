/**
 * @module
 * Folds the oldest messages of a conversation into its running summary. The result is cut to the summary's token
 * bound whatever the model returns, so folding a summary into a new one never grows it without limit.
 */
import type OpenAI from "openai";
import { shortenToTokens } from "../context/shorten.ts";
import { complete } from "./completion.ts";
import {
  FOLDED_MESSAGES_HEADING,
  jsonLine,
  PREVIOUS_SUMMARY_HEADING,
  SUMMARY_SYSTEM,
  summaryInstruction,
  type MessageRecord,
} from "./memory-wording.ts";

/** English prose runs at about 1.3 tokens a word: ask for fewer words than the token bound allows. */
const WORDS_PER_TOKEN = 0.6;

export interface SummaryRequest {
  /** The summary so far, if any. */
  previous?: string;
  /** The messages to fold, oldest first. */
  messages: MessageRecord[];
  maxTokens: number;
  /** Hears the tokens the call used (per-tenant budgets). */
  onUsage?: (tokens: number) => void;
}

/** The updated summary within `maxTokens`; null when the model gave nothing. */
export async function summarizeConversation(
  client: OpenAI,
  model: string,
  req: SummaryRequest,
): Promise<string | null> {
  const content = [
    ...(req.previous ? [PREVIOUS_SUMMARY_HEADING, req.previous, ""] : []),
    FOLDED_MESSAGES_HEADING,
    ...req.messages.map(jsonLine),
    "",
    summaryInstruction(Math.max(1, Math.floor(req.maxTokens * WORDS_PER_TOKEN))),
  ].join("\n");
  const text = await complete(client, {
    model,
    messages: [
      { role: "system", content: SUMMARY_SYSTEM },
      { role: "user", content },
    ],
    maxTokens: req.maxTokens,
    ...(req.onUsage ? { onUsage: req.onUsage } : {}),
  });
  const summary = shortenToTokens(text.trim(), req.maxTokens);
  return summary === "" ? null : summary;
}
