/**
 * @module
 * One chat completion call: the model's text (and the tools it asked for, when offered some), validated with zod;
 * a 429 becomes RetryLater, anything else throws.
 */
import OpenAI from "openai";
import * as z from "../zod.ts";
import { countPromptTokens, countTokens } from "../context/tokens.ts";
import { RetryLater } from "../errors.ts";
import { countable, toolCallsSchema, toolsParam, type PassMessage, type ToolCall, type ToolSpec } from "./tool-messages.ts";

const HTTP_TOO_MANY_REQUESTS = 429;
/** Used when a 429 carries no usable Retry-After. */
const DEFAULT_RETRY_AFTER_SECONDS = 10;

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.optional(z.nullable(z.string())), tool_calls: z.nullish(toolCallsSchema) }) })).check(z.minLength(1)),
  /** What the call cost (OpenAI-compatible servers send it; per-tenant budgets count it). */
  usage: z.nullish(z.object({ total_tokens: z.number().check(z.int(), z.gte(0)) })),
});

export interface CompletionRequest {
  model: string;
  messages: PassMessage[];
  maxTokens: number;
  /** Offered to the model (lib/jobs/tool-loop.ts); none: a plain completion. */
  tools?: readonly ToolSpec[];
  /** "none": the tools stay offered (the messages hold their calls) but this pass must answer in words. */
  toolChoice?: "none";
  /**
   * Hears the tokens the call used: the server's figure, or when the server gave none (a stream ended before its
   * last chunk, a server that never sends one) a count of what went in and came out (lib/context/tokens.ts).
   */
  onUsage?: (tokens: number) => void;
}

/** What a call used when the server did not say: the prompt and the text the model wrote, counted. */
export function estimatedUsage(messages: PassMessage[], output: string): number {
  return countPromptTokens(countable(messages)) + countTokens(output);
}

/** The text of the first choice ("" when the model sent none). */
export async function complete(client: OpenAI, req: CompletionRequest): Promise<string> {
  return (await completeMessage(client, req)).content;
}

/** The first choice: its text ("" when none) and the tool calls it asked for (none unless tools were offered). */
export async function completeMessage(client: OpenAI, req: CompletionRequest): Promise<{ content: string; toolCalls: ToolCall[] }> {
  let raw: unknown;
  try {
    raw = await client.chat.completions.create({
      model: req.model,
      messages: req.messages,
      max_completion_tokens: req.maxTokens,
      ...toolFields(req),
    });
  } catch (err) {
    if (err instanceof OpenAI.APIError && err.status === HTTP_TOO_MANY_REQUESTS) {
      throw new RetryLater(`the model is rate limited (${req.model})`, retryAfterSeconds(err.headers));
    }
    throw err;
  }
  const parsed = completionSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`the model answered in an unexpected shape: ${parsed.error.issues[0]?.message}`);
  const { message } = parsed.data.choices[0]!;
  const content = message.content ?? "";
  const toolCalls = req.tools?.length ? (message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })) : [];
  req.onUsage?.(parsed.data.usage ? parsed.data.usage.total_tokens : estimatedUsage(req.messages, content + toolCalls.map((c) => c.arguments).join("")));
  return { content, toolCalls };
}

/** The request's tool fields, when it offers tools. */
export function toolFields(req: CompletionRequest): { tools?: ReturnType<typeof toolsParam>; tool_choice?: "none" } {
  if (!req.tools?.length) return {};
  return { tools: toolsParam(req.tools), ...(req.toolChoice ? { tool_choice: req.toolChoice } : {}) };
}

export function retryAfterSeconds(headers: Headers | undefined): number {
  const value = headers?.get("retry-after");
  if (!value) return DEFAULT_RETRY_AFTER_SECONDS;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? DEFAULT_RETRY_AFTER_SECONDS : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
