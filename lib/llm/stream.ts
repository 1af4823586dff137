/**
 * @module
 * One streamed chat completion (`stream: true`): the text deltas as the model writes them, each chunk validated
 * with zod, the usage figures heard from the last; a 429 becomes RetryLater like a whole completion's (./completion.ts).
 */
import OpenAI from "openai";
import * as z from "zod";
import { RetryLater } from "../errors.ts";
import { retryAfterSeconds, type CompletionRequest } from "./completion.ts";

const HTTP_TOO_MANY_REQUESTS = 429;

const chunkSchema = z.looseObject({
  choices: z.array(z.looseObject({ delta: z.looseObject({ content: z.string().nullable().optional() }).optional() })),
  /** On the last chunk only, asked for with `include_usage` (per-tenant budgets count it). */
  usage: z.object({ total_tokens: z.number().int().min(0) }).nullish(),
});

/** The deltas of the first choice, in order; empty ones are left out. */
export async function* streamCompletion(client: OpenAI, req: CompletionRequest): AsyncGenerator<string> {
  let stream: AsyncIterable<unknown>;
  try {
    stream = await client.chat.completions.create({
      model: req.model,
      messages: req.messages,
      max_completion_tokens: req.maxTokens,
      stream: true,
      stream_options: { include_usage: true },
    });
  } catch (err) {
    if (err instanceof OpenAI.APIError && err.status === HTTP_TOO_MANY_REQUESTS) {
      throw new RetryLater(`the model is rate limited (${req.model})`, retryAfterSeconds(err.headers));
    }
    throw err;
  }
  for await (const raw of stream) {
    const chunk = chunkSchema.safeParse(raw);
    if (!chunk.success) throw new Error(`the model streamed an unexpected chunk: ${chunk.error.issues[0]?.message}`);
    if (chunk.data.usage) req.onUsage?.(chunk.data.usage.total_tokens);
    const delta = chunk.data.choices[0]?.delta?.content;
    if (delta) yield delta;
  }
}
