/**
 * @module
 * Finishing a streamed answer: its message is left holding exactly the answer's first part (as `send` splits it)
 * with the stream closed, whichever attempt gets here; the rest of the answer then goes out as further parts.
 * The final text is durable in the draft before the message is touched, so a retry finishes with the same text.
 */
import type { Attempt } from "../delivery.ts";
import type { Replier } from "../pipeline.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";
import { splitText } from "../text/split.ts";

export async function finishStream(rt: Runtime, job: Job, replier: Replier, attempt: Attempt): Promise<void> {
  const { stream, text = "" } = attempt.draft;
  if (!stream || attempt.draft.posted.length > 0) return;
  const streaming = replier.streaming(job);
  if (!streaming) throw new Error(`a ${job.key.platform} draft names a stream, but the platform has none`);
  await rt.store.replies.saveDraft(job.key, job.trigger.id, attempt.draft);
  const handle = streaming.resume(stream);
  await handle.finish(splitText(text, streaming.maxChars)[0] ?? text);
  attempt.draft = { ...attempt.draft, stream: { ...handle.state }, posted: [handle.state.id] };
}
