/**
 * @module
 * The draft of one trigger's answer, kept in its reply record between the attempts of its job (./claim-scripts.ts), in
 * one of two phases: writing (no text yet, perhaps a stream opening or showing the first words), then written (the text
 * being posted, the ids of the parts the platform accepted, when the call of the next part began if it never came back,
 * and what to record once all of it is out). docs/architecture.md draws its transitions. Its mere presence says an
 * earlier attempt got past the checks that count once (the judge cap, the reply rate limit). The text is the bot's own,
 * never a person's.
 */
import { streamStateSchema } from "../message.ts";
import * as z from "../zod.ts";

/** What a posted text was: an answer (recorded as the bot's turn), or a notice (the trigger is only marked done). */
const POSTED_OUTCOMES = [
  "answered",
  "forgotten",
  "rate_limited",
  "apologised",
  "over_budget",
  "approval_done",
  "approval_cancelled",
] as const;
export type PostedOutcome = (typeof POSTED_OUTCOMES)[number];

/** A confirm tool's call an answer asks a person to approve (lib/approvals/open.ts), with its idempotency key. */
/**
 * A confirm tool's call as its question showed it: `arguments` exactly as shown, `shown` their SHA-256 (hex), which the
 * continuation checks before it runs them (lib/approvals/continuation.ts; absent in a draft written before it was).
 */
export const pendingCallSchema = z.object({
  tool: z.string(),
  arguments: z.string(),
  key: z.string(),
  shown: z.optional(z.string()),
});
export type PendingCall = z.output<typeof pendingCallSchema>;

/** What a draft holds in either phase: the parts out, and a call or a stream whose answer may never have come back. */
const inFlight = {
  /** Ids of the parts the platform accepted, in order. */
  posted: z._default(z.array(z.string()), []),
  /** When the call that posts the next part (or opens the stream) began, ms, if its answer never came back. */
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
};

/** What the answer saw, for recording it: the message it was for, whom it answered, the log's arrival count. */
const sawSchema = z.object({
  id: z.string(),
  ts: z.number(),
  answered: z.array(z.string()),
  arrivals: z.number(),
  promptTokens: z.number(),
  droppedMessages: z.number(),
});

/** Phase 1, writing: no text yet; a stream may be opening or showing the model's first words. */
const writingSchema = z.object(inFlight);

/** Phase 2, written: the text is fixed; every later attempt posts it as it is, never a new one. */
const writtenSchema = z.object({
  text: z.string(),
  outcome: z.enum(POSTED_OUTCOMES),
  ...inFlight,
  /** The answer is a question that asks to approve this call: once it is out, the approval opens. */
  approval: z.optional(pendingCallSchema),
  /** Only an answer (`answered`) has it: it is recorded as the bot's turn. */
  saw: z.optional(sawSchema),
});

/** A reply record's draft, read back in the phase its text says. */
const draftSchema = z.union([writtenSchema, writingSchema]);

/** Before the text is written: nothing of a written draft's own. */
type WritingDraft = z.output<typeof writingSchema> & {
  text?: undefined;
  outcome?: undefined;
  approval?: undefined;
  saw?: undefined;
};
type WrittenDraft = z.output<typeof writtenSchema>;
/** The draft by phase: writing (no text yet), then written (lib/jobs/attempt.ts owns every change of it). */
export type Draft = WritingDraft | WrittenDraft;
export type AnswerSaw = z.output<typeof sawSchema>;

/** A reply record's draft ('' when there is none). */
export function parseDraft(raw: string): Draft {
  return draftSchema.parse(raw === "" ? {} : JSON.parse(raw));
}
