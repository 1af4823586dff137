/**
 * @module
 * bench/chaos's tool traffic (docs/tools.md): one conversation in five asks for a ticket lookup at the local tool
 * server (`lookup_ticket {"id": "<tag>"}`: the local model's first rule, so the answer, which quotes the result,
 * carries the conversation's tag like every other answer), and another one in five instead has the model ask for the
 * confirm-only `create_ticket` with a lookup beside it (a scripted call, whose title carries the tag): the answer is
 * the question that asks for a person's approval (./approvals.ts answers it on Slack, Discord, Telegram and SMS; on
 * Google Chat, whose card buttons it does not click yet, the question is left to expire). From the tool server's count,
 * afterwards: the lookups, counted by idempotency key; a key called with different arguments (a retry must repeat its
 * call, never make another); and the create_ticket calls (./approvals.ts).
 */
import { startToolServer, type RunningToolServer, type ToolServerCalls } from "../../dev/tools/server.ts";
import { devToolSettings } from "../../dev/tools/settings.ts";

const LOOKUP_EVERY = 5;
const CREATE_EVERY = 5;
const asksLookup = (id: number) => id % LOOKUP_EVERY === 2;
const asksCreate = (id: number) => id % CREATE_EVERY === 1;
const createPhrase = (tag: string) => `please file it as ticket-${tag}`;

/** What the trigger of conversation `id` (tagged `tag`) adds to its text: nothing, or its asks for tools. */
export function toolAsk(id: number, tag: string): string {
  if (asksCreate(id)) return ` ${createPhrase(tag)}`;
  return asksLookup(id) ? ` lookup_ticket {"id": "${tag}"}` : "";
}

/** The local model's rules for the conversations that ask for create_ticket (first pass only), before any other. */
export function toolModelRules(conversations: number, tagOf: (id: number) => string): unknown[] {
  return Array.from({ length: conversations }, (_, id) => id)
    .filter(asksCreate)
    .map((id) => ({
      match: createPhrase(tagOf(id)),
      afterTools: false,
      toolCalls: [
        { name: "create_ticket", arguments: JSON.stringify({ title: `${tagOf(id)} printer on 3rd floor jammed` }) },
        { name: "lookup_ticket", arguments: JSON.stringify({ id: tagOf(id) }) },
      ],
    }));
}

/** The tool server, and the Worker settings that give every tenant its lookup and its confirm-only tool. */
export async function startChaosTools(
  port: number,
): Promise<{ server: RunningToolServer; settings: Record<string, string> }> {
  const server = await startToolServer({ port });
  return { server, settings: { ...devToolSettings(server.url), TOOLS: "lookup_ticket,create_ticket" } };
}

export interface ToolFigures {
  /** Lookups the tool server received, counted by idempotency key (a retry's repeat under its key counts once). */
  tool_calls: number;
  /** Every call the tool server received, repeats included. */
  tool_requests: number;
  /** Idempotency keys called again with different arguments: must be 0. */
  key_reused: number;
}

export async function toolServerCalls(server: RunningToolServer): Promise<ToolServerCalls> {
  return (await (await fetch(`${server.url}/__calls`)).json()) as ToolServerCalls;
}

export function checkToolCalls(calls: ToolServerCalls, problems: string[]): ToolFigures {
  if (calls.keyReused > 0) problems.push(`idempotency: ${calls.keyReused} calls reused a key with other arguments`);
  return {
    tool_calls: Object.keys(calls.byKey).filter((key) => !(key in calls.createTitles)).length,
    tool_requests: Object.values(calls.byTool).reduce((a, b) => a + b, 0),
    key_reused: calls.keyReused,
  };
}
