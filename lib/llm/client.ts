/**
 * @module
 * The LLM as the job flow sees it: generate a reply (or stay quiet), judge whether to answer, and the memory calls
 * (summarize, extract facts). One OpenAI-compatible client, no hidden retries: QStash retries the whole job.
 */
import OpenAI from "openai";
import type { Prompt } from "../context/prompt.ts";
import { extractFacts, type ExtractedFact, type FactsRequest } from "./extract-facts.ts";
import { generatePass, generateReply, toolPassMessages, type GenerateOptions, type WholePass } from "./generate.ts";
import { streamPass, streamReply, type StreamedPass } from "./stream-reply.ts";
import type { PassMessage, ToolSpec } from "./tool-messages.ts";
import { judgeShouldAnswer } from "./judge.ts";
import { summarizeConversation, type SummaryRequest } from "./summarize.ts";
import { catchUpCall, type CatchUpRequest } from "../catch-up/model.ts";

export interface LlmSettings {
  apiKey: string;
  baseUrl: string;
  model: string;
  judgeModel: string;
  /** Answers prompts that carry images (VISION_MODEL, else the model). */
  visionModel: string;
  /** The model of the passes after a tool round (FOLLOWUP_MODEL, else LLM_MODEL). */
  followupModel: string;
  timeoutMs: number;
  maxReplyTokens: number;
}

export interface ReplyOptions {
  required: boolean;
  /** Hears the tokens each model call used (per-tenant budgets). */
  onUsage?: (tokens: number) => void;
}

/**
 * A pass of the tool loop (lib/jobs/tool-loop.ts): the tools offered, the rounds so far, whether it must answer now.
 */
export interface ToolPass {
  tools: readonly ToolSpec[];
  rounds: readonly PassMessage[];
  /** The last pass: tools stay offered (the rounds hold their calls) but the model must answer in words. */
  answerNow: boolean;
}

export interface Llm {
  /** null when the model chose to stay quiet ([SKIP] or empty) and the reply was not required. When required, a
   *  [SKIP]/empty answer is retried once with a nudge, then a short fallback text is returned. */
  generate(prompt: Prompt, opts: ReplyOptions): Promise<string | null>;
  /** The reply as it is written (lib/llm/stream-reply.ts): values are the whole answer so far; null as `generate`. */
  streamReply(prompt: Prompt, opts: ReplyOptions): Promise<AsyncIterable<string> | null>;
  /** One pass that may ask for tools instead of answering; after a tool round on the follow-up model. */
  generatePass(prompt: Prompt, pass: ToolPass, opts: ReplyOptions): Promise<WholePass>;
  /** As `generatePass`, the answer streamed as `streamReply`'s. */
  streamPass(prompt: Prompt, pass: ToolPass, opts: ReplyOptions): Promise<StreamedPass>;
  /** YES/NO; anything else counts as NO. `onUsage` as ReplyOptions'. */
  judge(prompt: Prompt, onUsage?: (tokens: number) => void): Promise<boolean>;
  /** The running summary with `lines` folded in, within `maxTokens`; null when the model gave nothing. */
  summarize(req: SummaryRequest): Promise<string | null>;
  /** Facts the people stated in the exchange; null when the model's output was invalid (logged, dropped). */
  extractFacts(req: FactsRequest): Promise<ExtractedFact[] | null>;
  /** A catch-up's notes on a chunk of messages, or its answer from the notes (lib/catch-up/model.ts); null: nothing. */
  catchUp(req: CatchUpRequest): Promise<string | null>;
}

export function createLlm(s: LlmSettings): Llm {
  const client = new OpenAI({ apiKey: s.apiKey, baseURL: s.baseUrl, timeout: s.timeoutMs, maxRetries: 0 });
  const answering = (prompt: Prompt) => ({
    model: prompt.images?.length ? s.visionModel : s.model,
    maxReplyTokens: s.maxReplyTokens,
    idleTimeoutMs: s.timeoutMs,
  });
  return {
    generate: (prompt, opts) => generateReply(client, prompt, { ...answering(prompt), ...opts }),
    streamReply: (prompt, opts) => streamReply(client, prompt, { ...answering(prompt), ...opts }),
    generatePass: (prompt, pass, opts) =>
      generatePass(
        client,
        toolPassMessages(prompt, opts.required, pass.rounds),
        prompt,
        passOptions(s, prompt, pass, opts),
      ),
    streamPass: (prompt, pass, opts) =>
      streamPass(
        client,
        toolPassMessages(prompt, opts.required, pass.rounds),
        prompt,
        passOptions(s, prompt, pass, opts),
      ),
    judge: (prompt, onUsage) => judgeShouldAnswer(client, prompt, s.judgeModel, onUsage),
    summarize: (req) => summarizeConversation(client, s.model, req),
    extractFacts: (req) => extractFacts(client, s.model, req),
    catchUp: (req) => catchUpCall(client, s.model, req),
  };
}

/**
 * A prompt with pictures needs the vision model on every pass; otherwise passes after a tool round take the follow-up
 * model.
 */
function passOptions(s: LlmSettings, prompt: Prompt, pass: ToolPass, opts: ReplyOptions): GenerateOptions {
  const model = prompt.images?.length ? s.visionModel : pass.rounds.length > 0 ? s.followupModel : s.model;
  return {
    model,
    maxReplyTokens: s.maxReplyTokens,
    idleTimeoutMs: s.timeoutMs,
    tools: pass.tools,
    ...(pass.answerNow ? { toolChoice: "none" } : {}),
    ...opts,
  };
}
