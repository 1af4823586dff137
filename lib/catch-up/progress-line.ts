/**
 * @module
 * What a catch-up (./step.ts) shows and keeps while it works. Where the platform streams or edits an answer, a
 * progress line ("Reading 340 messages…") in the answer's own message, through the answer's draft like any stream
 * (lib/jobs/attempt.ts), so the summary takes its place when it is posted (lib/jobs/stream-end.ts) and a failed
 * catch-up's
 * apology too. And the trace of each model call (its prompt and what it used), kept with the progress from step to
 * step, for the admin view's prompts of the answer; past a size the later prompts are left out, their calls still
 * listed.
 */
import type { AnswerTrace, ModelCallTrace } from "../conversation/answer-trace.ts";
import type { PassMessage } from "../llm/tool-messages.ts";
import type { AnswerScope } from "../jobs/scope.ts";

/** The prompts a catch-up's trace keeps in all (characters): the admin view's, not a transcript. */
const TRACE_MAX_CHARS = 200_000;

/** The progress line before a model call: the messages read, and which part this is when there are several. */
export function progressLine(read: number, chunk: { at: number; of: number } | "combining"): string {
  const messages = `${read} ${read === 1 ? "message" : "messages"}`;
  if (chunk === "combining") return `Summing up ${messages}…`;
  return chunk.of > 1 ? `Reading ${messages}… (part ${chunk.at} of ${chunk.of})` : `Reading ${messages}…`;
}

/**
 * Shows `line` in the answer's message where the platform streams or edits (STREAMING on): opens the stream the
 * first time (a step's retry opens it as any stream is, looking for an opening that never came back), shows the
 * line in it afterwards. Nothing where the platform has no stream: the working sign says it works.
 */
export async function showProgress(scope: AnswerScope, line: string): Promise<void> {
  const { rt, job, replier, attempt } = scope;
  const streaming = rt.settings.STREAMING ? replier.streaming(job) : null;
  if (!streaming || attempt.draft.posted.length > 0) return;
  const earlier = attempt.draft.stream;
  if (!earlier) {
    const unsure = await attempt.streamOpening(line);
    const stream = await streaming.open(line, unsure);
    attempt.streamOpened(stream?.state ?? null, unsure);
    return;
  }
  if (!earlier.open && earlier.mode === "native") return;
  const stream = streaming.resume(earlier);
  await attempt.streamShowing();
  await stream.show(line);
  attempt.streamShown(stream.state);
}

/** One call's trace, its prompt as sent (only a plain chat's messages: a catch-up offers no tools). */
export function callTrace(label: string, tokens: number, sent: readonly PassMessage[]): ModelCallTrace {
  const messages = sent.flatMap((m) =>
    m.role !== "tool" && typeof m.content === "string" ? [{ role: m.role, content: m.content }] : [],
  );
  return { label, tokens, messages };
}

/** The calls with the prompts kept up to TRACE_MAX_CHARS, the first ones first. */
function keptCalls(calls: readonly ModelCallTrace[]): ModelCallTrace[] {
  let left = TRACE_MAX_CHARS;
  return calls.map((call) => {
    const size = call.messages.reduce((sum, m) => sum + m.content.length, 0);
    if (size <= left) {
      left -= size;
      return call;
    }
    return { label: call.label, tokens: call.tokens, messages: [], omitted: true };
  });
}

/** The catch-up's trace for the admin view: each call in order, the last one's prompt as the answer's. */
export function catchUpTrace(scope: AnswerScope, calls: readonly ModelCallTrace[]): AnswerTrace {
  const { rt, job } = scope;
  const kept = keptCalls(calls);
  return {
    conversationId: job.conversationId,
    triggerId: job.trigger.id,
    reason: job.reason,
    kind: "catch_up",
    at: rt.now(),
    promptTokens: calls.reduce((sum, c) => sum + c.tokens, 0),
    droppedMessages: 0,
    messages: kept.at(-1)?.messages ?? [],
    calls: kept,
  };
}
