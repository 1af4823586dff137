/**
 * @module
 * Reply generation: the model may stay quiet with [SKIP] unless an answer is required, in which case a quiet model is
 * nudged once and then replaced by a short fallback. With tools offered, a pass may instead ask for tool calls.
 */
import type OpenAI from "openai";
import type { ChatMessage } from "../context/chat-message.ts";
import type { Prompt } from "../context/prompt.ts";
import { logger } from "../log.ts";
import { complete, completeMessage } from "./completion.ts";
import { TOOL_RESULTS_DECLARATION, type PassMessage, type ToolCall, type ToolSpec } from "./tool-messages.ts";
import { REQUIRED_NUDGE, SKIP_ANSWER, SKIP_INSTRUCTION } from "./wording.ts";
import { FALLBACK_ANSWER } from "../notices.ts";

export interface GenerateOptions {
  model: string;
  maxReplyTokens: number;
  required: boolean;
  onUsage?: (tokens: number) => void;
  /** A streamed answer fails when the model sends nothing for this long (./stream.ts). */
  idleTimeoutMs: number;
  /** Offered to the model (lib/jobs/tool-loop.ts); "none": offered, but this pass must answer in words. */
  tools?: readonly ToolSpec[];
  toolChoice?: "none";
}

/** A pass of the tool loop: the tools the model asked for, or its answer (null: it stayed quiet). */
export type WholePass = { kind: "tools"; calls: ToolCall[] } | { kind: "answer"; text: string | null };

export async function generateReply(client: OpenAI, prompt: Prompt, opts: GenerateOptions): Promise<string | null> {
  const pass = await generatePass(client, answerMessages(prompt, opts.required), prompt, opts);
  return pass.kind === "answer" ? pass.text : null;
}

/** One pass over `messages`: the calls the model asked for, or its answer as `generateReply` gives it. */
export async function generatePass(
  client: OpenAI,
  messages: PassMessage[],
  prompt: Prompt,
  opts: GenerateOptions,
): Promise<WholePass> {
  const { content, toolCalls } = await completeMessage(client, {
    model: opts.model,
    messages,
    images: prompt.images,
    maxTokens: opts.maxReplyTokens,
    onUsage: opts.onUsage,
    ...passTools(opts),
  });
  if (toolCalls.length > 0) return { kind: "tools", calls: toolCalls };
  const first = cleanAnswer(content, prompt.botName);
  if (first !== null || !opts.required) return { kind: "answer", text: first };
  return { kind: "answer", text: await nudgedAnswer(client, messages, prompt, opts) };
}

/** The prompt's messages, with leave to stay quiet unless the answer is required. */
export function answerMessages(prompt: Prompt, required: boolean): ChatMessage[] {
  return required ? prompt.messages : withSystemLine(prompt.messages, SKIP_INSTRUCTION);
}

/** A pass of the tool loop: the answer's messages, told that tool results are data, then the rounds so far. */
export function toolPassMessages(prompt: Prompt, required: boolean, rounds: readonly PassMessage[]): PassMessage[] {
  return [...withSystemLine(answerMessages(prompt, required), TOOL_RESULTS_DECLARATION), ...rounds];
}

/** The tools of a pass as the completion takes them. */
export function passTools(opts: GenerateOptions): Pick<GenerateOptions, "tools" | "toolChoice"> {
  return { ...(opts.tools ? { tools: opts.tools } : {}), ...(opts.toolChoice ? { toolChoice: opts.toolChoice } : {}) };
}

/** A required answer the model left quiet: asked once more with a nudge, then the fallback text. */
export async function nudgedAnswer(
  client: OpenAI,
  messages: PassMessage[],
  prompt: Prompt,
  opts: GenerateOptions,
): Promise<string> {
  const nudged: PassMessage[] = [...messages, { role: "system", content: REQUIRED_NUDGE }];
  // Tools still offered when the messages hold their calls, but not to be called now.
  const tools = opts.tools ? { tools: opts.tools, toolChoice: "none" as const } : {};
  const second = cleanAnswer(
    await complete(client, {
      model: opts.model,
      messages: nudged,
      images: prompt.images,
      maxTokens: opts.maxReplyTokens,
      onUsage: opts.onUsage,
      ...tools,
    }),
    prompt.botName,
  );
  if (second !== null) return second;
  logger.warn("llm_fallback_answer", { model: opts.model });
  return FALLBACK_ANSWER;
}

/**
 * The answer without an echoed "BotName:" prefix; null when it is empty or starts with [SKIP] (as streaming decides).
 */
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
