/**
 * @module
 * For the memory suites (workerd): the prompt an answer was written from, told apart from the memory calls that
 * quote the same messages, and the facts stored about a person.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { FACTS_SYSTEM, SUMMARY_SYSTEM } from "../../lib/llm/memory-wording.ts";
import { modelRequests, type ChatRequest } from "./model.ts";
import { eventually } from "./worker.ts";

/** The reply prompts whose current message contains `marker` (never the extraction or summary calls). */
async function replyPrompts(marker: string): Promise<ChatRequest[]> {
  const memoryCalls = new Set([FACTS_SYSTEM, SUMMARY_SYSTEM]);
  return (await modelRequests(marker)).filter((r) => !memoryCalls.has(r.messages[0]!.content));
}

/** Waits for the reply prompt of the message carrying `marker`. */
export async function replyPrompt(marker: string): Promise<ChatRequest> {
  return eventually(async () => (await replyPrompts(marker))[0], 15_000, `the prompt of ${marker}`);
}

/** Everything stored about a person in one tenant, as text ("" when nothing). */
export async function storedFacts(
  redis: Redis,
  prefix: string,
  where: { platform: string; tenant: string },
  person: string,
): Promise<string> {
  const value = await redis.get<unknown>(`${prefix}:facts:${where.platform}|${where.tenant}|${person}`);
  return value === null ? "" : JSON.stringify(value);
}
