/**
 * @module
 * One chat completion call: the model's text (and the tools it asked for, when offered some), validated with zod;
 * a 429 becomes RetryLater, a refusal of the request's images ImagesRefused (./image-parts.ts), anything else throws.
 */
import type OpenAI from "openai";
import * as z from "../zod.ts";
import type { PromptImage } from "../context/images.ts";
import { countPromptTokens, countTokens } from "../context/tokens.ts";
import { modelCallError, withImages } from "./image-parts.ts";
import {
  countable,
  toolCallsSchema,
  toolsParam,
  type PassMessage,
  type ToolCall,
  type ToolSpec,
} from "./tool-messages.ts";

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.optional(z.nullable(z.string())), tool_calls: z.nullish(toolCallsSchema) }),
      }),
    )
    .check(z.minLength(1)),
  /** What the call cost (OpenAI-compatible servers send it; per-tenant budgets count it). */
  usage: z.nullish(z.object({ total_tokens: z.number().check(z.int(), z.gte(0)) })),
});

export interface CompletionRequest {
  model: string;
  messages: PassMessage[];
  /** Pictures of the last user turn (./image-parts.ts). */
  images?: readonly PromptImage[];
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
  /** Hears the messages as they are sent (the admin view's trace of a call made outside a prompt: a catch-up's). */
  onPrompt?: (messages: readonly PassMessage[]) => void;
}

/** What a call used when the server did not say: the prompt, its images and the text the model wrote, counted. */
export function estimatedUsage(messages: PassMessage[], output: string, images: readonly PromptImage[] = []): number {
  return (
    countPromptTokens(countable(messages)) + images.reduce((sum, image) => sum + image.tokens, 0) + countTokens(output)
  );
}

/** The text of the first choice ("" when the model sent none). */
export async function complete(client: OpenAI, req: CompletionRequest): Promise<string> {
  return (await completeMessage(client, req)).content;
}

/** The first choice: its text ("" when none) and the tool calls it asked for (none unless tools were offered). */
export async function completeMessage(
  client: OpenAI,
  req: CompletionRequest,
): Promise<{ content: string; toolCalls: ToolCall[] }> {
  let raw: unknown;
  req.onPrompt?.(req.messages);
  try {
    raw = await client.chat.completions.create({
      model: req.model,
      messages: withImages(req.messages, req.images),
      max_completion_tokens: req.maxTokens,
      ...toolFields(req),
    });
  } catch (err) {
    throw modelCallError(err, req.model, req.images);
  }
  const parsed = completionSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`the model answered in an unexpected shape: ${parsed.error.issues[0]?.message}`);
  const { message } = parsed.data.choices[0]!;
  const content = message.content ?? "";
  const toolCalls = req.tools?.length
    ? (message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }))
    : [];
  const written = content + toolCalls.map((c) => c.arguments).join("");
  req.onUsage?.(parsed.data.usage ? parsed.data.usage.total_tokens : estimatedUsage(req.messages, written, req.images));
  return { content, toolCalls };
}

/** The request's tool fields, when it offers tools. */
export function toolFields(req: CompletionRequest): { tools?: ReturnType<typeof toolsParam>; tool_choice?: "none" } {
  if (!req.tools?.length) return {};
  return { tools: toolsParam(req.tools), ...(req.toolChoice ? { tool_choice: req.toolChoice } : {}) };
}
