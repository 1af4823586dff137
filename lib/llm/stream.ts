/**
 * @module
 * One streamed chat completion (`stream: true`): the text deltas as the model writes them, each chunk validated
 * with zod, the usage figures heard from the last, the tool calls' pieces put together when tools were offered; a
 * failed call becomes what a whole completion's does (./completion.ts).
 * The client's timeout ends at the response's headers: a stream that then goes quiet (the model stalls, or its
 * connection died without a word) would hold the job, its claim and a half-shown answer until the platform gave
 * up on the request. Each chunk must come within `idleTimeoutMs` of the one before, or the call fails and the
 * job's retry finishes the answer.
 */
import type OpenAI from "openai";
import * as z from "../zod.ts";
import { withinMs } from "../deadline.ts";
import { estimatedUsage, toolFields, type CompletionRequest } from "./completion.ts";
import { modelCallError, withImages } from "./image-parts.ts";
import type { ToolCall } from "./tool-messages.ts";

/** A piece of a tool call: the first of a call has its id and name, the rest add to its arguments. */
const toolCallDelta = z.looseObject({
  index: z.number().check(z.int(), z.gte(0)),
  id: z.nullish(z.string()),
  function: z.nullish(z.looseObject({ name: z.nullish(z.string()), arguments: z.nullish(z.string()) })),
});

const chunkSchema = z.looseObject({
  choices: z.array(
    z.looseObject({
      delta: z.optional(
        z.looseObject({ content: z.optional(z.nullable(z.string())), tool_calls: z.nullish(z.array(toolCallDelta)) }),
      ),
    }),
  ),
  /** On the last chunk only, asked for with `include_usage` (per-tenant budgets count it). */
  usage: z.nullish(z.object({ total_tokens: z.number().check(z.int(), z.gte(0)) })),
});

export interface StreamRequest extends CompletionRequest {
  idleTimeoutMs: number;
  /** Where the calls the model streams are put together, by their index (tools offered only). */
  toolCalls?: ToolCall[];
}

/** The deltas of the first choice, in order; empty ones are left out. */
export async function* streamCompletion(client: OpenAI, req: StreamRequest): AsyncGenerator<string> {
  const abort = new AbortController();
  let stream: AsyncIterable<unknown>;
  try {
    stream = await client.chat.completions.create(
      {
        model: req.model,
        messages: withImages(req.messages, req.images),
        max_completion_tokens: req.maxTokens,
        stream: true,
        stream_options: { include_usage: true },
        ...toolFields(req),
      },
      { signal: abort.signal },
    );
  } catch (err) {
    throw modelCallError(err, req.model, req.images);
  }
  const chunks = stream[Symbol.asyncIterator]();
  // The usage comes on the last chunk; a stream left early ([SKIP]) or cut off never sends it, and is counted.
  const heard = { usage: false, text: "" };
  try {
    // Unless the stream stays quiet for idleTimeoutMs: then the request is aborted and the call fails.
    const quiet = () => {
      abort.abort();
      throw new Error(`the model's stream went quiet for ${req.idleTimeoutMs} ms`);
    };
    for (
      let next = await withinMs(chunks.next(), req.idleTimeoutMs, quiet);
      !next.done;
      next = await withinMs(chunks.next(), req.idleTimeoutMs, quiet)
    ) {
      yield* deltaOf(next.value, req, heard);
    }
  } finally {
    abort.abort();
    if (!heard.usage) req.onUsage?.(estimatedUsage(req.messages, heard.text, req.images));
  }
}

function* deltaOf(raw: unknown, req: StreamRequest, heard: { usage: boolean; text: string }): Generator<string> {
  const chunk = chunkSchema.safeParse(raw);
  if (!chunk.success) throw new Error(`the model streamed an unexpected chunk: ${chunk.error.issues[0]?.message}`);
  if (chunk.data.usage) {
    heard.usage = true;
    req.onUsage?.(chunk.data.usage.total_tokens);
  }
  for (const piece of chunk.data.choices[0]?.delta?.tool_calls ?? []) {
    if (!req.toolCalls) break;
    const call = req.toolCalls[piece.index] ?? { id: "", name: "", arguments: "" };
    req.toolCalls[piece.index] = call;
    call.id ||= piece.id ?? "";
    call.name ||= piece.function?.name ?? "";
    call.arguments += piece.function?.arguments ?? "";
    heard.text += piece.function?.arguments ?? "";
  }
  const delta = chunk.data.choices[0]?.delta?.content;
  if (!delta) return;
  heard.text += delta;
  yield delta;
}
