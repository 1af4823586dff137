/**
 * @module
 * One chat completion call: the model's text, validated with zod; a 429 becomes RetryLater, anything else throws.
 */
import type OpenAI from "openai";
import * as z from "../zod.ts";
import type { ChatMessage } from "../context/chat-message.ts";
import type { PromptImage } from "../context/images.ts";
import { countPromptTokens, countTokens } from "../context/tokens.ts";
import { modelCallError, withImages } from "./image-parts.ts";

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.optional(z.nullable(z.string())) }) })).check(z.minLength(1)),
  /** What the call cost (OpenAI-compatible servers send it; per-tenant budgets count it). */
  usage: z.nullish(z.object({ total_tokens: z.number().check(z.int(), z.gte(0)) })),
});

export interface CompletionRequest {
  model: string;
  messages: ChatMessage[];
  /** Pictures of the last user turn (./image-parts.ts). */
  images?: readonly PromptImage[];
  maxTokens: number;
  /**
   * Hears the tokens the call used: the server's figure, or when the server gave none (a stream ended before its
   * last chunk, a server that never sends one) a count of what went in and came out (lib/context/tokens.ts).
   */
  onUsage?: (tokens: number) => void;
}

/** What a call used when the server did not say: the prompt, its images and the text the model wrote, counted. */
export function estimatedUsage(messages: ChatMessage[], output: string, images: readonly PromptImage[] = []): number {
  return countPromptTokens(messages) + images.reduce((sum, image) => sum + image.tokens, 0) + countTokens(output);
}

/** The text of the first choice ("" when the model sent none). */
export async function complete(client: OpenAI, req: CompletionRequest): Promise<string> {
  let raw: unknown;
  try {
    raw = await client.chat.completions.create({
      model: req.model,
      messages: withImages(req.messages, req.images),
      max_completion_tokens: req.maxTokens,
    });
  } catch (err) {
    throw modelCallError(err, req.model, req.images);
  }
  const parsed = completionSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`the model answered in an unexpected shape: ${parsed.error.issues[0]?.message}`);
  const content = parsed.data.choices[0]!.message.content ?? "";
  req.onUsage?.(parsed.data.usage ? parsed.data.usage.total_tokens : estimatedUsage(req.messages, content, req.images));
  return content;
}
