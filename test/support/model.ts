/**
 * @module
 * Drives the local model from tests: script answers for messages containing a marker, read the prompts it got.
 */
import { MODEL_CONTROL_URL } from "./worker.ts";

export interface ModelRule {
  match: string;
  reply?: string;
  status?: number;
  delayMs?: number;
  times?: number;
  /** The pace of this answer (dev/local-model/pace.ts). */
  firstTokenMs?: number;
  tokensPerSecond?: number;
  /**
   * Tool calls instead of an answer, and whether the rule is for passes after tool results
   * (dev/local-model/tool-calls.ts).
   */
  toolCalls?: { name: string; arguments: string }[];
  afterTools?: boolean;
}

export async function scriptModel(...rules: ModelRule[]): Promise<void> {
  const res = await fetch(`${MODEL_CONTROL_URL}/__script`, { method: "POST", body: JSON.stringify({ rules }) });
  if (!res.ok) throw new Error(`scripting the local model failed: ${res.status}`);
}

export interface ChatRequest {
  model: string;
  messages: {
    role: string;
    content: string;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: { type: "function"; function: { name: string; description?: string; parameters?: unknown } }[];
  tool_choice?: string;
}

/** The chat requests whose last user message contains `match`, oldest first. */
export async function modelRequests(match: string): Promise<ChatRequest[]> {
  const res = await fetch(`${MODEL_CONTROL_URL}/__requests?match=${encodeURIComponent(match)}`);
  return (await res.json()) as ChatRequest[];
}

/** The records of a prompt's data block (lib/context/data-block.ts), which comes right after the system message. */
export function dataBlockRecords(request: ChatRequest): Record<string, unknown>[] {
  return request.messages[1]!.content.split("\n")
    .slice(1, -1)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * The conversation's records in a prompt, oldest first: each person's message as its JSON record
 * (lib/context/turns.ts),
 * each of the bot's turns as `{bot: text}`; the data block is left out.
 */
export function turnRecords(request: ChatRequest): Record<string, unknown>[] {
  return request.messages.slice(1).flatMap((m) => {
    if (m.role === "assistant") return [{ bot: m.content }];
    if (m.role !== "user" || !m.content.startsWith("{")) return [];
    return m.content.split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
  });
}
