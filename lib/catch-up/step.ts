/**
 * @module
 * "Catch me up" (lib/catch-up/request.ts): a summary of what the place said since the asker's last message
 * there (or the window they named), at most CATCHUP_MAX_HOURS back and CATCHUP_MAX_MESSAGES long, each point with
 * a link to the message it comes from. It runs inside the trigger's reply job, as one or more steps: a step reads
 * the pages still unread (./pages.ts) and makes at most one model call (a chunk's notes, or the notes
 * into the answer), so that each step fits in one model call's time; a step that leaves work hands the answer's
 * claim back and publishes the next step (deduplicated per step, so a retried step publishes it once). The answer
 * goes out through the reply job's own draft and post path (lib/jobs/post.ts): exactly one summary, whatever QStash
 * redelivers. Only the place's own messages are read; in a DM it says what it can do instead.
 */
import type { CatchUpProgress } from "./progress.ts";
import type { AnswerTrace } from "../conversation/answer-trace.ts";
import type { PassMessage } from "../llm/tool-messages.ts";
import { callTrace, catchUpTrace, progressLine, showProgress } from "./progress-line.ts";
import type { PostedOutcome } from "../conversation/draft.ts";
import { selectTurn } from "../conversation/turn.ts";
import type { ConversationState } from "../message.ts";
import { catchUpRequest, type CatchUpRequest } from "./request.ts";
import type { Claimed } from "../jobs/attempt.ts";
import { CatchUpRefused, chunksOf, nextCall, numbered, readPage } from "./pages.ts";
import { metered } from "../jobs/metered.ts";
import { toldOverBudget } from "../jobs/over-budget.ts";
import { finishDraft } from "../jobs/post.ts";
import type { AnswerScope, JobScope } from "../jobs/scope.ts";
import { inertUrls } from "../text/inert-urls.ts";

const MS_PER_HOUR = 3_600_000;

export const CATCH_UP_IN_DM =
  "I can catch you up on a channel or a thread from inside it: " +
  'mention me there with "catch me up", "what did I miss?" ' +
  'or "summarize the last two hours", and I\'ll sum up what was said since your last message, with links.';
const NOTHING_TO_CATCH_UP = "Nothing was said here in that time that I can read: you're all caught up.";
export const catchUpRefusedText = (missing: string | null) =>
  missing
    ? `I can't read this place's history (the platform refused: ${missing}), so I can't catch you up here.`
    : "I can't read this place's history, so I can't catch you up here.";

/** The catch-up the job's trigger asks for (addressed to the bot, and nothing but the request); null otherwise. */
export function catchUpAsked(scope: AnswerScope, state: ConversationState): CatchUpRequest | null {
  const { job } = scope;
  if (!job.required) return null;
  const trigger = state.recent.find((m) => m.id === job.trigger.id);
  return trigger ? catchUpRequest(trigger.text, job.bot) : null;
}

/** One step of the catch-up: the answer posted, or "continued" when the next step was published. */
export async function catchUp(
  scope: AnswerScope,
  claim: Claimed,
  state: ConversationState,
  request: CatchUpRequest,
): Promise<PostedOutcome | "over_budget" | "continued"> {
  const { rt, job } = scope;
  if ((await scope.visibility()) === "dm") return post(scope, state, claim, CATCH_UP_IN_DM);
  const maxMs = rt.settings.CATCHUP_MAX_HOURS * MS_PER_HOUR;
  let progress: CatchUpProgress = (await rt.catchUps.load(job.key, job.trigger.id)) ?? {
    since: job.trigger.ts - Math.min(request.windowMs ?? maxMs, maxMs),
    before: { id: job.trigger.id, ts: job.trigger.ts },
    pages: 0,
    messages: [],
    notes: [],
  };
  try {
    for (let before = progress.before; before; before = progress.before) {
      progress = await readPage(scope, progress, before, request.windowMs === undefined);
      await rt.catchUps.save(job.key, job.trigger.id, progress);
    }
  } catch (err) {
    if (!(err instanceof CatchUpRefused)) throw err;
    rt.log.warn("catch_up_refused", { ...scope.where, missing: err.missing ?? "history" });
    return finish(scope, state, claim, catchUpRefusedText(err.missing));
  }
  const { records, ids } = numbered(progress);
  if (records.length === 0) return finish(scope, state, claim, NOTHING_TO_CATCH_UP);
  const chunks = chunksOf(records, rt.settings.PROMPT_TOKEN_BUDGET);
  const { input, last } = nextCall(chunks, progress.notes, rt.settings.PROMPT_TOKEN_BUDGET);
  const part = { at: progress.notes.length + 1, of: chunks.length };
  const combining = chunks.length > 1 && last;
  await showProgress(scope, progressLine(records.length, combining ? "combining" : part));
  const read = "messages" in input ? input.messages.length : 0;
  const label = combining
    ? `combining the notes of ${chunks.length} parts`
    : `${chunks.length > 1 ? `part ${part.at} of ${part.of}: ` : ""}${read} messages`;
  let used = 0;
  let sent: readonly PassMessage[] = [];
  const called = await metered(scope, rt.settings.PROMPT_TOKEN_BUDGET + rt.settings.MAX_REPLY_TOKENS, (onUsage) =>
    rt.llm.catchUp({
      input,
      maxTokens: rt.settings.MAX_REPLY_TOKENS,
      onUsage: (tokens) => {
        used += tokens;
        onUsage(tokens);
      },
      onPrompt: (messages) => {
        sent = messages;
      },
    }),
  );
  if ("over" in called) {
    await rt.catchUps.drop(job.key, job.trigger.id);
    return toldOverBudget(scope, called.over);
  }
  const text = called.done;
  const calls = [...(progress.calls ?? []), callTrace(label, used, sent)];
  rt.log.info("catch_up_step", {
    ...scope.where,
    pages: progress.pages,
    read: records.length,
    chunks: chunks.length,
    noted: progress.notes.length,
    last,
  });
  if (last)
    return finish(scope, state, claim, withLinks(scope, text ?? NOTHING_TO_CATCH_UP, ids), catchUpTrace(scope, calls));
  await rt.catchUps.save(job.key, job.trigger.id, { ...progress, notes: [...progress.notes, text ?? ""], calls });
  // The next step claims the answer anew; it shows its own working sign (the webhook's came down with this step).
  await scope.attempt.release();
  const { signByWebhook: _shown, ...next } = job;
  await rt.queue.publish(next, { step: progress.notes.length + 1 });
  return "continued";
}

/**
 * The model's [n] citations as links to the messages (where the platform has links; else left out), and every URL
 * it wrote itself shown inert (lib/text/inert-urls.ts): the links the job builds are the only links posted.
 */
export function withLinks(
  { job, replier }: Pick<JobScope, "job" | "replier">,
  text: string,
  ids: readonly string[],
): string {
  return inertUrls(text).replace(/ ?\[(\d+)\]/g, (_cite, n: string) => {
    const id = ids[Number(n) - 1];
    const link = id === undefined ? undefined : replier.messageLink(job, id);
    return link ? ` ${link}` : "";
  });
}

/** The summary posted as the bot's answer to the trigger, then the progress dropped: its messages go with it. */
async function finish(
  scope: AnswerScope,
  state: ConversationState,
  claim: Claimed,
  text: string,
  trace?: AnswerTrace,
): Promise<PostedOutcome> {
  const outcome = await post(scope, state, claim, text, trace);
  await scope.rt.catchUps.drop(scope.job.key, scope.job.trigger.id);
  return outcome;
}

function post(
  scope: AnswerScope,
  state: ConversationState,
  claim: Claimed,
  text: string,
  trace?: AnswerTrace,
): Promise<PostedOutcome> {
  const { job } = scope;
  const turn = selectTurn(state.recent, job.trigger, state.answeredThroughBy?.[job.trigger.authorId]);
  const saw = turn && {
    id: turn.current.id,
    ts: turn.current.ts,
    answered: turn.answered,
    arrivals: claim.arrivals,
    promptTokens: trace?.promptTokens ?? 0,
    droppedMessages: 0,
  };
  scope.attempt.write(text, "answered", saw ?? undefined);
  return finishDraft(scope, trace ? { trace } : {});
}
