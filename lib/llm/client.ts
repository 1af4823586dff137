/**
 * @module
 * The LLM as the job flow sees it: generate a reply (or stay quiet), judge whether to answer, and the memory calls
 * (summarize, extract facts). One OpenAI-compatible client, no hidden retries: QStash retries the whole job.
 */
import OpenAI from "openai";
import type { Prompt } from "../context/prompt.ts";
import { extractFacts, type ExtractedFact, type FactsRequest } from "./extract-facts.ts";
import { generateReply } from "./generate.ts";
import { streamReply } from "./stream-reply.ts";
import { judgeShouldAnswer } from "./judge.ts";
import { summarizeConversation, type SummaryRequest } from "./summarize.ts";

export interface LlmSettings {
  apiKey: string;
  baseUrl: string;
  model: string;
  judgeModel: string;
  /** Answers prompts that carry images (VISION_MODEL, else the model). */
  visionModel: string;
  timeoutMs: number;
  maxReplyTokens: number;
}

export interface ReplyOptions {
  required: boolean;
  /** Hears the tokens each model call used (per-tenant budgets). */
  onUsage?: (tokens: number) => void;
}

export interface Llm {
  /** null when the model chose to stay quiet ([SKIP] or empty) and the reply was not required. When required, a
   *  [SKIP]/empty answer is retried once with a nudge, then a short fallback text is returned. */
  generate(prompt: Prompt, opts: ReplyOptions): Promise<string | null>;
  /** The reply as it is written (lib/llm/stream-reply.ts): values are the whole answer so far; null as `generate`. */
  streamReply(prompt: Prompt, opts: ReplyOptions): Promise<AsyncIterable<string> | null>;
  /** YES/NO; anything else counts as NO. `onUsage` as ReplyOptions'. */
  judge(prompt: Prompt, onUsage?: (tokens: number) => void): Promise<boolean>;
  /** The running summary with `lines` folded in, within `maxTokens`; null when the model gave nothing. */
  summarize(req: SummaryRequest): Promise<string | null>;
  /** Facts the people stated in the exchange; null when the model's output was invalid (logged, dropped). */
  extractFacts(req: FactsRequest): Promise<ExtractedFact[] | null>;
}

export function createLlm(s: LlmSettings): Llm {
  const client = new OpenAI({ apiKey: s.apiKey, baseURL: s.baseUrl, timeout: s.timeoutMs, maxRetries: 0 });
  const answering = (prompt: Prompt) => ({ model: prompt.images?.length ? s.visionModel : s.model, maxReplyTokens: s.maxReplyTokens, idleTimeoutMs: s.timeoutMs });
  return {
    generate: (prompt, opts) => generateReply(client, prompt, { ...answering(prompt), ...opts }),
    streamReply: (prompt, opts) => streamReply(client, prompt, { ...answering(prompt), ...opts }),
    judge: (prompt, onUsage) => judgeShouldAnswer(client, prompt, s.judgeModel, onUsage),
    summarize: (req) => summarizeConversation(client, s.model, req),
    extractFacts: (req) => extractFacts(client, s.model, req),
  };
}
