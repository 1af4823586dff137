/**
 * @module
 * Reply generation: the model may stay quiet with [SKIP] unless an answer is required, in which case a quiet model is
 * nudged once and then replaced by a short fallback.
 */
import type OpenAI from "openai";
import type { ChatMessage } from "../context/chat-message.ts";
import type { Prompt } from "../context/prompt.ts";
import { logger } from "../log.ts";
import { complete } from "./completion.ts";
import { REQUIRED_NUDGE, SKIP_ANSWER, SKIP_INSTRUCTION } from "./wording.ts";
import { FALLBACK_ANSWER } from "../notices.ts";

export interface GenerateOptions {
  model: string;
  maxReplyTokens: number;
  required: boolean;
  onUsage?: (tokens: number) => void;
  /** A streamed answer fails when the model sends nothing for this long (./stream.ts). */
  idleTimeoutMs: number;
}

export async function generateReply(client: OpenAI, prompt: Prompt, opts: GenerateOptions): Promise<string | null> {
  const messages = answerMessages(prompt, opts.required);
  const first = cleanAnswer(await complete(client, { model: opts.model, messages, images: prompt.images, maxTokens: opts.maxReplyTokens, onUsage: opts.onUsage }), prompt.botName);
  if (first !== null) return first;
  if (!opts.required) return null;
  return nudgedAnswer(client, messages, prompt, opts);
}

/** The prompt's messages, with leave to stay quiet unless the answer is required. */
export function answerMessages(prompt: Prompt, required: boolean): ChatMessage[] {
  return required ? prompt.messages : withSystemLine(prompt.messages, SKIP_INSTRUCTION);
}

/** A required answer the model left quiet: asked once more with a nudge, then the fallback text. */
export async function nudgedAnswer(client: OpenAI, messages: ChatMessage[], prompt: Prompt, opts: GenerateOptions): Promise<string> {
  const nudged: ChatMessage[] = [...messages, { role: "system", content: REQUIRED_NUDGE }];
  const second = cleanAnswer(
    await complete(client, { model: opts.model, messages: nudged, images: prompt.images, maxTokens: opts.maxReplyTokens, onUsage: opts.onUsage }),
    prompt.botName,
  );
  if (second !== null) return second;
  logger.warn("llm_fallback_answer", { model: opts.model });
  return FALLBACK_ANSWER;
}

/** The answer without an echoed "BotName:" prefix; null when it is empty or starts with [SKIP] (as streaming decides). */
export function cleanAnswer(text: string, botName: string): string | null {
  let answer = text.trim();
  const echoedName = `${botName}:`;
  if (answer.toLowerCase().startsWith(echoedName.toLowerCase())) answer = answer.slice(echoedName.length).trim();
  if (answer === "" || answer.toUpperCase().startsWith(SKIP_ANSWER)) return null;
  return answer;
}

function withSystemLine(messages: ChatMessage[], line: string): ChatMessage[] {
  const [first, ...rest] = messages;
  if (first?.role !== "system") return [{ role: "system", content: line }, ...messages];
  return [{ role: "system", content: `${first.content}\n${line}` }, ...rest];
}
