/**
 * @module
 * What the admin view shows of each recent answer: why the bot answered, the exact prompt the model got and the
 * tool rounds it took first, or each call of an answer made of several (a catch-up's).
 * Kept per conversation, capped, and never longer than the conversation itself (see RECORD_REPLY).
 */
import * as z from "../zod.ts";

/** Enough to see the last few answers of a conversation without storing a transcript twice. */
export const MAX_ANSWER_TRACES = 5;

const chatMessageSchema = z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() });

/** One tool round before an answer (docs/tools.md): each call and its result as the model read it, and its time. */
const toolRoundSchema = z.object({
  ms: z.number(),
  calls: z.array(z.object({ tool: z.string(), arguments: z.string(), result: z.string() })),
});
export type ToolRoundTrace = z.infer<typeof toolRoundSchema>;

/** One model call of an answer made of several (a catch-up's chunks and their combining): its prompt and cost. */
export const modelCallSchema = z.object({
  /** What the call was for, in words ("part 1 of 3: 120 messages", "combining 3 parts"). */
  label: z.string(),
  /** What it used of the daily token budgets (the server's count). */
  tokens: z.number(),
  /** The prompt as sent; empty when it was left out to keep the trace small (`omitted`). */
  messages: z.array(chatMessageSchema),
  omitted: z.optional(z.literal(true)),
});
export type ModelCallTrace = z.infer<typeof modelCallSchema>;

export const answerTraceSchema = z.object({
  conversationId: z.string(),
  triggerId: z.string(),
  /** The decision reason that queued the job (`direct_mention`, `recent_followup`...). */
  reason: z.string(),
  /** `reply`, or `judge` when the LLM judge said yes first. */
  kind: z.string(),
  /** When the answer was posted, ms since the epoch. */
  at: z.number(),
  promptTokens: z.number(),
  droppedMessages: z.number(),
  messages: z.array(chatMessageSchema),
  /** The tool rounds the model took before it answered, when it took any. */
  toolRounds: z.optional(z.array(toolRoundSchema)),
  /** A person pressed Stop while it was written: the answer holds what was written then. */
  stopped: z.optional(z.literal(true)),
  /** Every model call of an answer made of several (a catch-up), in order; `messages` is then the last one's. */
  calls: z.optional(z.array(modelCallSchema)),
  /** The confirm tool's call the answer asks a person to approve (docs/tools.md), when it is such a question. */
  approval: z.optional(z.object({ tool: z.string(), arguments: z.string() })),
});

export type AnswerTrace = z.infer<typeof answerTraceSchema>;
