/**
 * @module
 * The local model's tool calls, by deterministic rules (docs/tools.md#the-local-model). Only a request that offers
 * tools and leaves the model free to call them (`tool_choice` not "none") gets calls (a test's scripted `toolCalls`
 * on every such pass); the rules below only on its first pass (no tool result after the last user message), and
 * they read the last person's message, never a tool result:
 *
 * 1. A tool's name followed by a JSON object (`lookup_ticket {"id": "42"}`): that call, those arguments.
 * 2. `ticket 42` or `ticket #42`, with `lookup_ticket` offered: `lookup_ticket {"id": "42"}`.
 * 3. An https address, with `fetch_page` offered: `fetch_page {"url": …}`.
 * 4. `search the web for X` with `web_search`, `search memory for X` with `search_memory`: `{"query": "X"}`.
 *
 * A pass after tool results answers from them: `(local model) <tool>: <result>` per result, quoted in part.
 */
import { DATA_BLOCK_CLOSE, DATA_BLOCK_OPEN } from "../../lib/context/data-block.ts";
import { personRecords } from "../../lib/context/turns.ts";
import { lastUserMessage, type ChatRequest } from "./script.ts";

export interface LocalToolCall {
  name: string;
  arguments: string;
}

const QUOTE_LIMIT = 200;

/** Whether the request's model is free to call a tool now: tools offered, and not "none". */
export function mayCallTools(req: ChatRequest): boolean {
  return (req.tools?.length ?? 0) > 0 && req.tool_choice !== "none";
}

/** The calls the rules above make for the request's last person's message (none: it answers in words). */
export function ruleCalls(req: ChatRequest): LocalToolCall[] {
  if (toolResults(req).length > 0) return [];
  const offered = new Set((req.tools ?? []).map((t) => t.function.name));
  const text = personRecords(lastUserMessage(req)).pop()?.text ?? lastUserMessage(req);
  for (const name of offered) {
    const at = text.indexOf(`${name} {`);
    if (at < 0) continue;
    const args = jsonObjectAt(text, at + name.length + 1);
    if (args !== null) return [{ name, arguments: args }];
  }
  const natural: [string, RegExp, (m: RegExpMatchArray) => Record<string, string>][] = [
    ["lookup_ticket", /\bticket #?(\d+)\b/i, (m) => ({ id: m[1]! })],
    ["fetch_page", /https:\/\/[^\s"'<>]+/, (m) => ({ url: m[0] })],
    ["web_search", /\bsearch the web for (.+)/i, (m) => ({ query: m[1]!.trim() })],
    ["search_memory", /\bsearch memory for (.+)/i, (m) => ({ query: m[1]!.trim() })],
  ];
  for (const [name, pattern, args] of natural) {
    const match = offered.has(name) ? text.match(pattern) : null;
    if (match) return [{ name, arguments: JSON.stringify(args(match)) }];
  }
  return [];
}

/** The tool results after the last user message, each `{tool, result}` or `{tool, error}` of its data line. */
export function toolResults(req: ChatRequest): { tool: string; result?: string; error?: string }[] {
  const lastUser = req.messages.findLastIndex((m) => m.role === "user");
  return req.messages.slice(lastUser + 1).flatMap((m) => {
    if (m.role !== "tool") return [];
    const line = m.content.replace(DATA_BLOCK_OPEN, "").replace(DATA_BLOCK_CLOSE, "").trim();
    try {
      return [JSON.parse(line) as { tool: string; result?: string; error?: string }];
    } catch {
      return [{ tool: "?", error: "unreadable result" }];
    }
  });
}

/** The answer of a pass after tool results: what each tool gave, quoted in part. */
export function answerFromResults(req: ChatRequest): string {
  const said = toolResults(req).map((r) => {
    const text = r.result ?? `error: ${r.error ?? "?"}`;
    return `${r.tool}: ${text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text}`;
  });
  return `(local model) ${said.join(" | ")}`;
}

/** The JSON object text starting at `from` (balanced braces, strings respected), or null. */
function jsonObjectAt(text: string, from: number): string | null {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) {
      const candidate = text.slice(from, i + 1);
      try {
        JSON.parse(candidate);
        return candidate;
      } catch {
        return null;
      }
    }
  }
  return null;
}
