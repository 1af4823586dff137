/**
 * @module
 * Writing a job's answer the way a person sees it soonest: a sign that the bot is working as soon as the job
 * starts, then (where the platform and STREAMING allow) the answer streamed into one message as the model writes
 * it. Nothing appears before the first words show the answer is not [SKIP]. The stream's message id goes into the
 * answer's draft as soon as the platform gives it, with the text shown so far, so that an attempt that dies
 * mid-stream leaves a retry everything to finish that same message (./finish.ts); a failing attempt closes its
 * stream before it gives up its claim.
 */
import type { Prompt } from "../context/prompt.ts";
import { keepClaim, type Attempt } from "../delivery.ts";
import { errorMessage } from "../log.ts";
import type { AnswerStream, WorkingSign } from "../platforms/adapter.ts";
import type { JobStreaming, Replier } from "../pipeline.ts";
import type { Job, JobKind } from "../queue/job.ts";
import { endEarlierStream } from "./finish.ts";
import type { Runtime } from "../runtime.ts";

/**
 * Runs `work` (the answer to a reply job) with the working sign up from its start: the sign goes up beside the
 * prompt's building and the model call, neither waiting for the other, and comes down when the answer starts to
 * show or the work ends, whatever its end. A judged job shows none: the judge may say no. `signUp`: the webhook
 * put it up already (./early-sign.ts), so it is only taken down.
 */
export async function whileWorking<T>(
  rt: Runtime,
  kind: JobKind,
  job: Job,
  replier: Replier,
  signUp: boolean,
  work: (sign: WorkingSign) => Promise<T>,
): Promise<T> {
  const sign = kind !== "reply" ? NO_SIGN : job.signByWebhook ? webhookSign(rt, job, replier, signUp) : later(workingSign(rt, job, replier, false));
  let failed = false;
  try {
    return await work(sign);
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    await sign.stop();
    // Taken down: QStash's retry must not take it down again, outside the budget.
    if (failed && job.signByWebhook) await rt.store.replies.forgetSign(job.key, job.trigger.id).catch(() => undefined);
  }
}

/**
 * The answer's final text, or null when the model stayed quiet; `sign` comes down once the answer shows;
 * `onUsage` hears the tokens of each model call (per-tenant budgets).
 */
export async function writeAnswer(
  rt: Runtime,
  job: Job,
  replier: Replier,
  attempt: Attempt,
  prompt: Prompt,
  sign: WorkingSign,
  onUsage: (tokens: number) => void,
): Promise<string | null> {
  // An earlier attempt's stream is finished with a whole new answer, which that message now owes the person.
  if (attempt.draft.stream) {
    await endEarlierStream(job, replier, attempt);
    return await rt.llm.generate(prompt, { required: true, onUsage });
  }
  const streaming = rt.settings.STREAMING ? replier.streaming(job) : null;
  if (!streaming) return await rt.llm.generate(prompt, { required: job.required, onUsage });
  const texts = await rt.llm.streamReply(prompt, { required: job.required, onUsage });
  return texts && (await streamInto(rt, job, streaming, attempt, texts, sign));
}

async function streamInto(
  rt: Runtime,
  job: Job,
  streaming: JobStreaming,
  attempt: Attempt,
  texts: AsyncIterable<string>,
  sign: WorkingSign,
): Promise<string> {
  let latest = "";
  let stream: AnswerStream | null | undefined;
  let shownAt = 0;
  try {
    for await (const text of texts) {
      // A long answer may outlive the claim's TTL: renewed as it is written (a Redis call every 30 s at most).
      await keepClaim(rt, job, attempt);
      latest = text;
      if (stream === null || !text.trim()) continue;
      if (stream === undefined) {
        // Durable before the call: an attempt that never hears back from it leaves the next one a time to look from.
        // With the text it opens with: a stream that cannot carry the answer's id from its start is known by it.
        const { postingSince: since, openings = [] } = attempt.draft;
        attempt.draft = { ...attempt.draft, postingSince: since ?? rt.now(), openings: [...openings, text] };
        await rt.store.replies.saveDraft(job.key, job.trigger.id, attempt.draft);
        stream = await streaming.open(text, since === undefined ? undefined : { since, openings });
        // Unless an earlier attempt's open may have landed and none opened now: then posting the answer whole
        // looks for that post first (lib/platforms/parts.ts).
        const { postingSince: _opened, openings: _texts, ...rest } = attempt.draft;
        attempt.draft = stream || since === undefined ? rest : { ...rest, postingSince: since };
        if (stream) {
          // Taken down beside the stream, not before its next update (writeAnswer waits for it at the end).
          void sign.stop();
          shownAt = rt.now();
          attempt.draft = { ...attempt.draft, stream: { ...stream.state } };
          await rt.store.replies.saveDraft(job.key, job.trigger.id, attempt.draft);
        }
        continue;
      }
      // Past one message's worth the message stops growing: the rest goes out as further parts at the end.
      if (text.length > streaming.maxChars || rt.now() - shownAt < streaming.intervalMs) continue;
      shownAt = rt.now();
      await stream.show(text);
      attempt.draft = { ...attempt.draft, stream: { ...stream.state } };
    }
  } catch (err) {
    if (stream) {
      await stream.close();
      attempt.draft = { ...attempt.draft, stream: { ...stream.state } };
    }
    throw err;
  }
  return latest.trim();
}

const NO_SIGN: WorkingSign = { stop: async () => undefined };

/**
 * The webhook's sign (./early-sign.ts), which the job only takes down: marked up before the job's claim read it
 * (`signUp`), or by the time the answer shows (the webhook's sign goes up in milliseconds, the answer in seconds;
 * one GET then). Never taken down unmarked: its budget was never taken, and the reaction never put on.
 */
function webhookSign(rt: Runtime, job: Job, replier: Replier, signUp: boolean): WorkingSign {
  const takeDown = async () => {
    if (!rt.settings.SHOW_WORKING) return;
    if (!signUp && !(await rt.store.replies.signIsUp(job.key, job.trigger.id).catch(() => false))) return;
    await (await workingSign(rt, job, replier, true)).stop();
  };
  let stopped: Promise<void> | undefined;
  return { stop: () => (stopped ??= takeDown()) };
}

/** A sign still going up: stopping it waits until it is up, then takes it down. */
function later(sign: Promise<WorkingSign>): WorkingSign {
  return { stop: async () => (await sign).stop() };
}

/** The platform's sign, or none: a sign that fails must not hold up the answer. */
async function workingSign(rt: Runtime, job: Job, replier: Replier, signUp: boolean): Promise<WorkingSign> {
  if (!rt.settings.SHOW_WORKING) return NO_SIGN;
  try {
    const sign = await replier.working(job, { signUp });
    let stopped: Promise<void> | undefined;
    return { stop: () => (stopped ??= sign.stop()) };
  } catch (err) {
    rt.log.warn("working_sign_failed", { platform: job.key.platform, message: errorMessage(err) });
    return NO_SIGN;
  }
}
