/**
 * @module
 * Writing a job's answer the way a person sees it soonest: where the platform and STREAMING allow, streamed into
 * one message as the model writes it. Nothing appears before the first words show the answer is not [SKIP]. The
 * stream's message goes into the answer's draft as soon as the platform gives it (./attempt.ts), so that an attempt
 * that dies mid-stream leaves a retry everything to finish that same message (./stream-end.ts); a failing attempt
 * closes its stream before it gives up its claim. With tools offered, the model may look things up first
 * (./tool-loop.ts).
 */
import type { Prompt } from "../context/prompt.ts";
import type { AnswerStream, WorkingSign } from "../platforms/answer-stream.ts";
import type { JobStreaming } from "../platforms/replier.ts";
import type { AnswerScope } from "./scope.ts";
import { endEarlierStream } from "./stream-end.ts";
import { offeredTools, streamedAnswer, wholeAnswer, type ToolUse } from "./tool-loop.ts";

/**
 * The answer's final text, or null when the model stayed quiet; `sign` comes down once the answer shows;
 * `onUsage` hears the tokens of each model call (per-tenant budgets); `used` gets what the tools did.
 */
export async function writeAnswer(
  scope: AnswerScope,
  prompt: Prompt,
  sign: WorkingSign,
  onUsage: (tokens: number) => void,
  used: ToolUse,
): Promise<string | null> {
  const { rt, job, replier, attempt } = scope;
  const tools = offeredTools(scope);
  // An earlier attempt's stream is finished with a whole new answer, which that message now owes the person.
  if (attempt.draft.stream) {
    await endEarlierStream(scope);
    return await wholeAnswer(scope, prompt, tools, { required: true, onUsage }, used);
  }
  const streaming = rt.settings.STREAMING ? replier.streaming(job) : null;
  if (!streaming) return await wholeAnswer(scope, prompt, tools, { required: job.required, onUsage }, used);
  const texts = await streamedAnswer(scope, prompt, tools, { required: job.required, onUsage }, used);
  return texts && (await streamInto(scope, streaming, texts, sign));
}

async function streamInto(
  scope: AnswerScope,
  streaming: JobStreaming,
  texts: AsyncIterable<string>,
  sign: WorkingSign,
): Promise<string> {
  const { rt, attempt } = scope;
  let latest = "";
  let stream: AnswerStream | null | undefined;
  let shownAt = 0;
  try {
    for await (const text of texts) {
      // A long answer may outlive the claim's TTL: renewed as it is written (a Redis call every 30 s at most).
      await attempt.keepClaim();
      latest = text;
      // A snapshot that would show nothing yet (a lone `**` or `## `) opens no stream.
      if (stream === null || !streaming.shows(text)) continue;
      if (stream === undefined) {
        const unsure = await attempt.streamOpening(text);
        stream = await streaming.open(text, unsure);
        // Unless an earlier attempt's open may have landed and none opened now: then posting the answer whole
        // looks for that post first (lib/platforms/parts.ts).
        attempt.streamOpened(stream?.state ?? null, unsure);
        if (stream) {
          // Taken down beside the stream, not before its next update (the reply job waits for it at the end).
          void sign.stop();
          shownAt = rt.now();
        }
        continue;
      }
      // Past one message's worth the message stops growing: the rest goes out as further parts at the end.
      if (text.length > streaming.maxChars || rt.now() - shownAt < streaming.intervalMs) continue;
      shownAt = rt.now();
      await attempt.streamShowing();
      await stream.show(text);
      attempt.streamShown(stream.state);
    }
  } catch (err) {
    if (stream) {
      await stream.close();
      attempt.streamClosed(stream.state);
    }
    throw err;
  }
  return latest.trim();
}
