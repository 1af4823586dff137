/**
 * @module
 * One streamed chat completion (`stream: true`): the text deltas as the model writes them, each chunk validated
 * with zod; a 429 becomes RetryLater like a whole completion's (./completion.ts).
 */
import OpenAI from "openai";
import * as z from "zod";
import { RetryLater } from "../errors.ts";
import { retryAfterSeconds, type CompletionRequest } from "./completion.ts";

const HTTP_TOO_MANY_REQUESTS = 429;

const chunkSchema = z.looseObject({
  choices: z.array(z.looseObject({ delta: z.looseObject({ content: z.string().nullable().optional() }).optional() })),
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
    const delta = chunk.data.choices[0]?.delta?.content;
    if (delta) yield delta;
  }
}
