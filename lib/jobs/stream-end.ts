/**
 * @module
 * Finishing a streamed answer: its message is left holding exactly the answer's first part (as `send` splits it)
 * with the stream closed, whichever attempt gets here; the rest of the answer then goes out as further parts.
 * The final text is durable in the draft before the message is touched, so a retry finishes with the same text.
 */
import type { JobStreaming } from "../platforms/replier.ts";
import { splitText } from "../text/split.ts";
import type { AnswerScope } from "./scope.ts";

export async function finishStream(scope: AnswerScope): Promise<void> {
  const { attempt } = scope;
  const { stream, text = "" } = attempt.draft;
  if (!stream || attempt.draft.posted.length > 0) return;
  const streaming = streamingOf(scope);
  await attempt.streamFinishing();
  const handle = streaming.resume(stream);
  await handle.finish(splitText(text, streaming.maxChars)[0] ?? text);
  attempt.streamFinished(handle.state);
  // A finish that sent the message that stays (a Telegram draft's): a retry could only send it again.
  if (handle.unfindable && handle.state.id !== stream.id) await attempt.keepPosted();
}

/**
 * Ends, as it stands, the stream an earlier attempt opened and left without its answer. What that stream shows
 * is known only as far as its draft was last saved (a job killed outright saves nothing more), so the new answer
 * must replace its text with one edit, never be appended to it: a stream that cannot be stopped yet fails the
 * attempt, for a later one to try.
 */
export async function endEarlierStream(scope: AnswerScope): Promise<void> {
  const { attempt } = scope;
  const { stream } = attempt.draft;
  if (!stream?.open) return;
  const handle = streamingOf(scope).resume(stream);
  await handle.close();
  if (handle.state.open) throw new Error("the earlier attempt's stream could not be stopped yet");
  attempt.streamClosed(handle.state);
}

function streamingOf({ job, replier }: AnswerScope): JobStreaming {
  const streaming = replier.streaming(job);
  if (!streaming) throw new Error(`a ${job.key.platform} draft names a stream, but the platform has none`);
  return streaming;
}
