/**
 * @module
 * Writing a job's answer the way a person sees it soonest: where the platform and STREAMING allow, streamed into
 * one message as the model writes it. Nothing appears before the first words show the answer is not [SKIP]. The
 * stream's message goes into the answer's draft as soon as the platform gives it (./attempt.ts), so that an attempt
 * that dies mid-stream leaves a retry everything to finish that same message (./stream-end.ts); a failing attempt
 * closes its stream before it gives up its claim. With tools offered, the model may look things up first
 * (./tool-loop.ts). Everything it works with comes in one writing context (./writing.ts).
 */
import type { Prompt } from "../context/prompt.ts";
import { ImagesRefused } from "../llm/image-parts.ts";
import { IMAGES_UNSEEN_NOTICE } from "../notices.ts";
import type { BudgetWatch } from "../limits/api-budget.ts";
import type { AnswerStream } from "../platforms/answer-stream.ts";
import type { JobStreaming } from "../platforms/replier.ts";
import type { AnswerScope } from "./scope.ts";
import { endEarlierStream } from "./stream-end.ts";
import { offeredTools, streamedAnswer, wholeAnswer } from "./tool-loop.ts";
import type { Writing } from "./writing.ts";

/**
 * The answer's final text, or null when the model stayed quiet; the sign comes down once the answer shows. A model
 * that refuses the prompt's pictures (a VISION_MODEL that cannot read images: ImagesRefused) gets the text alone:
 * the answer is written again whole (the refusal came before any word showed), and in each conversation the first
 * such answer begins by saying the bot cannot see images (IMAGES_UNSEEN_NOTICE), once.
 */
export async function writeAnswer(w: Writing): Promise<string | null> {
  try {
    return await writeSeen(w);
  } catch (err) {
    if (!(err instanceof ImagesRefused) || !w.prompt.images) throw err;
  }
  return writeWithoutImages(w, w.prompt.images);
}

async function writeSeen(w: Writing): Promise<string | null> {
  const { rt, job, replier, attempt } = w.scope;
  const tools = offeredTools(w.scope);
  // An earlier attempt's stream is finished with a whole new answer, which that message now owes the person.
  if (attempt.draft.stream) {
    await endEarlierStream(w.scope);
    return await wholeAnswer(w, tools, true);
  }
  const stop = stopWatch(w.scope);
  const streaming = rt.settings.STREAMING ? replier.streaming(job, stop.watch) : null;
  if (!streaming) return await wholeAnswer(w, tools, job.required);
  const texts = await streamedAnswer(w, tools, job.required);
  if (texts === null || typeof texts === "string") return texts;
  return streamInto(w, streaming, texts, stop);
}

/**
 * A Stop pressed on the answer while it shows: its mark is read with the stream's budget calls, which every visible
 * update makes anyway (lib/limits/api-budget.ts `BudgetWatch`), so watching costs no Redis command of its own.
 */
interface StopWatch {
  watch: BudgetWatch;
  /** Who pressed Stop, once a budget call read the mark. */
  by(): string | undefined;
}

function stopWatch({ rt, job }: AnswerScope): StopWatch {
  let by: string | undefined;
  return {
    watch: {
      key: rt.store.replies.stopMark(job.key, job.trigger.id),
      seen(name) {
        by ??= name;
      },
    },
    by: () => by,
  };
}

/** What a stopped answer keeps: what the model had written, and who stopped it. */
const stoppedText = (text: string, by: string) => `${text.trim()}\n\n_(stopped by ${by})_`;

async function writeWithoutImages(w: Writing, images: readonly { tokens: number }[]): Promise<string | null> {
  const { scope, prompt, onUsage } = w;
  const { rt, job } = scope;
  const { images: _refused, ...rest } = prompt;
  const textOnly: Prompt = { ...rest, tokens: prompt.tokens - images.reduce((sum, image) => sum + image.tokens, 0) };
  const told = await rt.toldOnce.imagesUnseen(job.key, job.conversationId);
  rt.log.warn("images_refused", { ...scope.where, images: images.length, notice: told });
  const answer = await rt.llm.generate(textOnly, { required: job.required, onUsage });
  if (!told) return answer;
  return answer ? `${IMAGES_UNSEEN_NOTICE}\n\n${answer}` : IMAGES_UNSEEN_NOTICE;
}

async function streamInto(
  w: Writing,
  streaming: JobStreaming,
  texts: AsyncIterable<string>,
  stop: StopWatch,
): Promise<string> {
  const { scope, sign } = w;
  const { rt, job, attempt, where } = scope;
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
        if (stream?.unfindable && stream.state.mode === "edit") await attempt.keepPosted();
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
      // Leaving the loop ends the model's stream (its request is aborted): nothing more is written or run.
      const by = stop.by() ?? (stream.personStopped ? job.trigger.authorName : undefined);
      if (by !== undefined) {
        rt.log.info("answer_stopped", {
          ...where,
          chars: latest.length,
          by: stream.personStopped ? "platform" : "control",
        });
        w.stopped = true;
        return stoppedText(latest, by);
      }
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
