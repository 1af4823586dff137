/**
 * @module
 * A chat completion as OpenAI's API returns it, whole (`chat.completion` with `usage`) or streamed as server-sent
 * events (`chat.completion.chunk` deltas, a closing chunk with `finish_reason`, the usage chunk when
 * `stream_options.include_usage` is set, then `data: [DONE]`), at the request's pace; tool calls instead of text
 * where the model asks for tools (`finish_reason: "tool_calls"`, streamed as an id and name, then the arguments in
 * pieces, as OpenAI streams them); and the garbage a broken
 * upstream sends instead (not JSON, or JSON of the wrong shape).
 */
import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { streamPieces } from "./long-answer.ts";
import { tokenReadyAfterMs, type Pace } from "./pace.ts";

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface Completion {
  model: string;
  content: string;
  usage: Usage;
  /** Calls instead of text (./tool-calls.ts). */
  toolCalls?: { name: string; arguments: string }[];
}

/** Tool call ids as OpenAI writes them. */
const callId = () => `call_${Math.random().toString(36).slice(2, 14)}`;

const newId = () => `chatcmpl-local-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const created = () => Math.floor(Date.now() / 1000);

function completionBody(c: Completion): Record<string, unknown> {
  return {
    id: newId(),
    object: "chat.completion",
    created: created(),
    model: c.model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: { role: "assistant", ...messageOf(c), refusal: null },
        logprobs: null,
        finish_reason: c.toolCalls?.length ? "tool_calls" : "stop",
      },
    ],
    usage: c.usage,
  };
}

function messageOf(c: Completion): Record<string, unknown> {
  if (!c.toolCalls?.length) return { content: c.content };
  return { content: null, tool_calls: c.toolCalls.map((call) => ({ id: callId(), type: "function", function: call })) };
}

/** Waits as long as generating the whole answer would take, then answers at once. */
export async function sendCompletion(res: ServerResponse, c: Completion, pace: Pace): Promise<void> {
  await sleep(tokenReadyAfterMs(pace, Math.max(0, streamPieces(c.content).length - 1)));
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(completionBody(c)));
}

/**
 * Streams the answer piece by piece at the pace; stops when the client goes away. With `dropAfterHalf` the
 * connection breaks halfway, as when an upstream dies mid-answer.
 */
export async function streamCompletion(
  res: ServerResponse,
  c: Completion,
  pace: Pace,
  opts: { includeUsage: boolean; dropAfterHalf?: boolean },
): Promise<void> {
  const id = newId();
  const base = { id, object: "chat.completion.chunk", created: created(), model: c.model, system_fingerprint: null };
  const usageField = opts.includeUsage ? { usage: null } : {};
  const send = (chunk: Record<string, unknown>) => res.write(`data: ${JSON.stringify({ ...base, ...chunk })}\n\n`);
  const choice = (delta: Record<string, unknown>, finish: string | null = null) => ({
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...usageField,
  });
  // A stalled stream's next token may be minutes away: the wait ends with the connection, so that no timer outlives it
  // (and holds up the process that runs this server when it closes).
  const gone = new AbortController();
  res.once("close", () => gone.abort());
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });

  if (c.toolCalls?.length) {
    // The calls come at once, when the first token would.
    await sleep(tokenReadyAfterMs(pace, 0), undefined, { signal: gone.signal }).catch(() => undefined);
    return gone.signal.aborted ? undefined : streamToolCalls(res, c, send, choice, opts.includeUsage);
  }
  const pieces = streamPieces(c.content);
  const started = Date.now();
  for (let index = 0; index < Math.max(pieces.length, 1); index++) {
    const wait = started + tokenReadyAfterMs(pace, index) - Date.now();
    if (wait > 0) await sleep(wait, undefined, { signal: gone.signal }).catch(() => undefined);
    if (gone.signal.aborted) return;
    if (opts.dropAfterHalf && index >= pieces.length / 2) return void res.socket?.destroy();
    if (index === 0) send(choice({ role: "assistant", content: "", refusal: null }));
    if (pieces[index] !== undefined) send(choice({ content: pieces[index] }));
  }
  send(choice({}, "stop"));
  if (opts.includeUsage) send({ choices: [], usage: c.usage });
  res.end("data: [DONE]\n\n");
}

type Send = (chunk: Record<string, unknown>) => void;
type Choice = (delta: Record<string, unknown>, finish?: string | null) => Record<string, unknown>;

/** Each call's id and name first, then its arguments in two pieces; then the finish and the usage. */
function streamToolCalls(res: ServerResponse, c: Completion, send: Send, choice: Choice, includeUsage: boolean): void {
  send(choice({ role: "assistant", content: null, refusal: null }));
  c.toolCalls!.forEach((call, index) => {
    send(
      choice({ tool_calls: [{ index, id: callId(), type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    const half = Math.ceil(call.arguments.length / 2);
    for (const piece of [call.arguments.slice(0, half), call.arguments.slice(half)])
      send(choice({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  send(choice({}, "tool_calls"));
  if (includeUsage) send({ choices: [], usage: c.usage });
  res.end("data: [DONE]\n\n");
}

/** What a broken upstream answers with status 200: text that is not JSON, or JSON without `choices`. */
export function sendGarbage(res: ServerResponse, shape: "not_json" | "wrong_shape", stream: boolean): void {
  const body =
    shape === "not_json"
      ? '<html><body>upstream hiccup {"choices": ['
      : JSON.stringify({ id: newId(), object: "list", data: [{ text: 42 }] });
  if (stream) {
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
    return void res.end(`data: ${body}\n\ndata: [DONE]\n\n`);
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(body);
}
