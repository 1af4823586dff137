/**
 * @module
 * The draft of one trigger's answer, kept in its reply record between the attempts of its job (./claim-scripts.ts):
 * the text being posted, the ids of the parts the platform accepted, when the call of the next part began if it
 * never came back, and what to record once all of it is out. Its mere presence says an earlier attempt got past
 * the checks that count once (the judge cap, the reply rate limit). The text is the bot's own, never a person's.
 */
import { streamStateSchema } from "../message.ts";
import * as z from "../zod.ts";

/** What a posted text was: an answer (recorded as the bot's turn), or a notice (the trigger is only marked done). */
export const POSTED_OUTCOMES = [
  "answered",
  "forgotten",
  "rate_limited",
  "apologised",
  "over_budget",
  "approval_done",
  "approval_cancelled",
] as const;
export type PostedOutcome = (typeof POSTED_OUTCOMES)[number];

/** A confirm tool's call an answer asks a person to approve (lib/jobs/approval-ask.ts), with its idempotency key. */
export const pendingCallSchema = z.object({ tool: z.string(), arguments: z.string(), key: z.string() });
export type PendingCall = z.output<typeof pendingCallSchema>;

export const draftSchema = z.object({
  /** Once set, every later attempt posts this text, never a new one. */
  text: z.optional(z.string()),
  outcome: z.optional(z.enum(POSTED_OUTCOMES)),
  /** Ids of the parts the platform accepted, in order. */
  posted: z._default(z.array(z.string()), []),
  /** When the call that posts the next part began, ms, if its answer never came back: ask the platform first. */
  postingSince: z.optional(z.number()),
  /**
   * The texts streams were opened with since `postingSince` whose answers never came back: a platform whose stream
   * cannot carry the answer's id from its start (Slack) knows a landed one by them (lib/jobs/write.ts).
   */
  openings: z.optional(z.array(z.string())),
  /**
   * The message the answer was streamed into (lib/jobs/write.ts): a later attempt finishes that message and
   * closes its stream, never opening another. Once finished, it is the answer's first part.
   */
  stream: z.optional(streamStateSchema),
  /**
   * When the answer's stream began to show it, ms (the first opening's save): its turn is recorded at that time,
   * before what people wrote while it streamed (lib/conversation/speaking.ts).
   */
  speakingSince: z.optional(z.number()),
  /** The answer is a question that asks to approve this call: once it is out, the approval opens. */
  approval: z.optional(pendingCallSchema),
  /** What the answer saw, for recording it: the message it was for, whom it answered, the log's arrival count. */
  saw: z.optional(
    z.object({
      id: z.string(),
      ts: z.number(),
      answered: z.array(z.string()),
      arrivals: z.number(),
      promptTokens: z.number(),
      droppedMessages: z.number(),
    }),
  ),
});

export type Draft = z.output<typeof draftSchema>;

/** A reply record's draft ('' when there is none). */
export function parseDraft(raw: string): Draft {
  return draftSchema.parse(raw === "" ? {} : JSON.parse(raw));
}
