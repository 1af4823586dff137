/**
 * @module
 * What the admin view shows of each recent answer: why the bot answered and the exact prompt the model got.
 * Kept per conversation, capped, and never longer than the conversation itself (see RECORD_REPLY).
 */
import * as z from "../zod.ts";

/** Enough to see the last few answers of a conversation without storing a transcript twice. */
export const MAX_ANSWER_TRACES = 5;

const chatMessageSchema = z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() });

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
});

export type AnswerTrace = z.infer<typeof answerTraceSchema>;
