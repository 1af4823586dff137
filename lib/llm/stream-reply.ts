/**
 * @module
 * A reply streamed as the model writes it. Nothing is let through until the first words show that the answer is
 * not [SKIP] (nor an echoed "BotName:", which is dropped): a quiet model never makes anything appear.
 */
import type OpenAI from "openai";
import type { Prompt } from "../context/prompt.ts";
import { answerMessages, cleanAnswer, nudgedAnswer, passTools, type GenerateOptions } from "./generate.ts";
import { streamCompletion } from "./stream.ts";
import type { PassMessage, ToolCall } from "./tool-messages.ts";
import { SKIP_ANSWER } from "./wording.ts";

type Start = { kind: "wait" } | { kind: "skip" } | { kind: "answer"; offset: number };

/** A streamed pass of the tool loop: the tools the model asked for, or its answer as `streamReply` gives it. */
export type StreamedPass =
  | { kind: "tools"; calls: ToolCall[] }
  | { kind: "answer"; texts: AsyncIterable<string> | null };

/**
 * The answer as it is written, each value the whole answer so far (without leading whitespace or an echoed
 * name); null when the model stays quiet and the answer was not required. A required answer the model left
 * quiet comes nudged, in one piece (./generate.ts).
 */
export async function streamReply(
  client: OpenAI,
  prompt: Prompt,
  opts: GenerateOptions,
): Promise<AsyncIterable<string> | null> {
  const pass = await streamPass(client, answerMessages(prompt, opts.required), prompt, opts);
  return pass.kind === "answer" ? pass.texts : null;
}

/**
 * One streamed pass over `messages`. A pass whose words show first is the answer (calls it asks for after them are
 * not made); a pass that wrote nothing but calls asks for those tools.
 */
export async function streamPass(
  client: OpenAI,
  messages: PassMessage[],
  prompt: Prompt,
  opts: GenerateOptions,
): Promise<StreamedPass> {
  const toolCalls: ToolCall[] = [];
  const request = {
    model: opts.model,
    messages,
    images: prompt.images,
    maxTokens: opts.maxReplyTokens,
    onUsage: opts.onUsage,
    idleTimeoutMs: opts.idleTimeoutMs,
    ...passTools(opts),
  };
  const deltas = streamCompletion(client, { ...request, ...(opts.tools ? { toolCalls } : {}) });
  let written = "";
  // Read by hand: leaving a for-await loop would end the model's stream, and the answer goes on after the peek.
  for (let next = await deltas.next(); !next.done; next = await deltas.next()) {
    written += next.value;
    const start = answerStart(written, prompt.botName);
    if (start.kind === "wait") continue;
    if (start.kind === "answer") return { kind: "answer", texts: growing(written, start.offset, deltas) };
    await deltas.return(undefined);
    break;
  }
  const calls = toolCalls.filter((c) => c.id && c.name);
  if (calls.length > 0 && !written.trim()) return { kind: "tools", calls };
  const whole = cleanAnswer(written, prompt.botName);
  if (whole !== null) return { kind: "answer", texts: once(whole) };
  if (!opts.required) return { kind: "answer", texts: null };
  return { kind: "answer", texts: once(await nudgedAnswer(client, messages, prompt, opts)) };
}

async function* growing(written: string, offset: number, rest: AsyncIterable<string>): AsyncGenerator<string> {
  let text = written.slice(offset);
  yield text;
  for await (const delta of rest) {
    text += delta;
    yield text;
  }
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

/** Where the visible answer begins in what the model wrote so far, once the first words tell. */
export function answerStart(written: string, botName: string): Start {
  const lead = written.length - written.trimStart().length;
  let rest = written.slice(lead);
  let offset = lead;
  const echoed = `${botName}:`.toLowerCase();
  if (echoed.startsWith(rest.toLowerCase())) return { kind: "wait" };
  if (rest.toLowerCase().startsWith(echoed)) {
    const afterName = rest.slice(echoed.length);
    offset += echoed.length + (afterName.length - afterName.trimStart().length);
    rest = afterName.trimStart();
  }
  const upper = rest.toUpperCase();
  if (upper.startsWith(SKIP_ANSWER)) return { kind: "skip" };
  if (SKIP_ANSWER.startsWith(upper)) return { kind: "wait" };
  return { kind: "answer", offset };
}
