/**
 * @module
 * The steps of one answer, top to bottom: whether there is anything to answer and anyone to answer, "forget me",
 * which turn the answer is for, the prompt (./gather.ts), the tokens its model calls may use reserved against the
 * daily budgets (settled to what they used), the checks that may stop a model call (the judge and its cap, the
 * person's reply rate), the writing (./write.ts), then the posting and recording
 * (./post.ts). Each way out is an outcome; notices go out like answers, so that a retry never posts them twice.
 */
import { withoutFileTexts } from "../context/data-block.ts";
import type { Prompt } from "../context/prompt.ts";
import type { PostedOutcome } from "../conversation/draft.ts";
import { selectTurn, type Turn } from "../conversation/turn.ts";
import { initiativeFits } from "../limits/initiative-cap.ts";
import { judgeWithinCap } from "../limits/judge-cap.ts";
import { checkReplyRate } from "../limits/reply-rate.ts";
import { JUDGE_MAX_TOKENS } from "../llm/judge.ts";
import { asksToBeForgotten, forgetPerson } from "../memory/forget.ts";
import { errorMessage } from "../log.ts";
import { APOLOGY, RATE_LIMIT_NOTICE } from "../notices.ts";
import type { WorkingSign } from "../platforms/answer-stream.ts";
import type { Claimed } from "./attempt.ts";
import { backfillConversation } from "./backfill.ts";
import { catchUp, catchUpAsked } from "../catch-up/step.ts";
import { endPersonalDigest } from "../digests/personal-command.ts";
import { gatherPrompt } from "./gather.ts";
import { finishDraft } from "./post.ts";
import type { AnswerScope } from "./scope.ts";
import { metered, type OnUsage } from "./metered.ts";
import { toldOverBudget } from "./over-budget.ts";
import { writeAnswer } from "./write.ts";
import type { Writing } from "./writing.ts";

/** How a job ended. */
export type JobOutcome =
  | PostedOutcome
  | "skipped"
  | "judge_no"
  | "already_answered"
  | "covered"
  | "conversation_gone"
  | "unreachable"
  | "superseded"
  | "gave_up"
  | "continued";

export async function answer(scope: AnswerScope, claim: Claimed, sign: WorkingSign): Promise<JobOutcome> {
  const { rt, job } = scope;
  const claimed = claim.state;
  // Nothing of the conversation is left to answer from: someone who was owed an answer hears so, once.
  if (!claimed)
    return claim.gone === "expired" && job.required && !claim.optedOut
      ? notice(scope, APOLOGY, "apologised")
      : "conversation_gone";
  // The person asked not to be messaged (read in the claim): no model call, nothing posted.
  if (claim.optedOut) return "unreachable";
  // The trigger itself, not the author's latest message: a question right after "forget me" gets its own answer.
  if (asksToBeForgotten(job, claimed.recent)) {
    const reply = await forgetPerson(rt, job);
    if (reply?.outcome === "forgotten") await endPersonalDigest(rt, job.key, job.trigger.authorId);
    return reply ? notice(scope, reply.text, reply.outcome) : "rate_limited";
  }
  // "Catch me up" is answered by its own steps (lib/catch-up/step.ts), the answer's claim and draft shared.
  const catchUpAsk = catchUpAsked(scope, claimed);
  if (catchUpAsk) return catchUp(scope, claim, claimed, catchUpAsk);
  // A conversation's first answer sees what was said in the place before the bot was called.
  const state = await backfillConversation(scope, claimed);
  const turn = selectTurn(state.recent, job.trigger, state.answeredThroughBy?.[job.trigger.authorId]);
  if (!turn) return "conversation_gone";
  if (job.waitsForBurst && turn.current.id !== job.trigger.id) return "superseded";
  if (job.reason === "initiative" && !(await initiativeFits(rt, job, state, claim.first))) return "skipped";
  const prompt = await gatherPrompt(scope, state, turn);
  // Every call counts, the judge's and one that ended in [SKIP] or failed included.
  const written = await metered(scope, likelyTokens(scope, prompt), async (onUsage): Promise<Written> => {
    const stop = await checksBeforeWriting(scope, claim, prompt, onUsage);
    if (stop) return { stop };
    const writing: Writing = { scope, prompt, sign, onUsage, toolUse: { rounds: [] } };
    return { text: await writeAnswer(writing), writing };
  });
  if ("over" in written) return toldOverBudget(scope, written.over);
  if ("stop" in written.done) return written.done.stop;
  const { text, writing } = written.done;
  if (text === null) return "skipped";
  const posted = await post(scope, claim, prompt, turn, text, writing);
  // A conversation's first answer names it, where the platform titles conversations (a Slack assistant thread).
  if (posted === "answered" && state.lastBotReplyAt === undefined) await titled(scope, turn.current.text);
  return posted;
}

/** The title is a nicety: a platform that refuses it is logged, and the answer stands. */
async function titled({ rt, job, replier, where }: AnswerScope, question: string): Promise<void> {
  await replier
    .titleConversation(job, question)
    .catch((err: unknown) => rt.log.warn("conversation_title_failed", { ...where, error: errorMessage(err) }));
}

/** What the metered call gave: a check's way out, or the text (null: quiet) and what the tools did. */
type Written = { stop: JobOutcome } | { text: string | null; writing: Writing };

/** What the answer's model calls may use: the prompt and a whole reply, and the judge's look at the prompt first. */
function likelyTokens({ rt, kind }: AnswerScope, prompt: Prompt): number {
  const judge = kind === "judge" ? prompt.tokens + JUDGE_MAX_TOKENS : 0;
  return prompt.tokens + rt.settings.MAX_REPLY_TOKENS + judge;
}

/** The checks that may stop the model call; each counts a trigger once (only its first attempt asks them). */
async function checksBeforeWriting(
  scope: AnswerScope,
  claim: Claimed,
  prompt: Prompt,
  onUsage: OnUsage,
): Promise<JobOutcome | null> {
  const { rt, job, kind } = scope;
  if (kind === "judge" && !(await judgeWithinCap(rt, job, claim.first, () => rt.llm.judge(prompt, onUsage))))
    return "judge_no";
  const allowance = claim.first ? await checkReplyRate(rt, job) : "allowed";
  if (allowance === "notify") return notice(scope, RATE_LIMIT_NOTICE, "rate_limited");
  if (allowance === "quiet") return "rate_limited";
  return null;
}

function notice(scope: AnswerScope, text: string, outcome: PostedOutcome): Promise<PostedOutcome> {
  scope.attempt.write(text, outcome);
  return finishDraft(scope);
}

/**
 * The answer goes out with what it saw (to record it as the bot's turn) and its trace (for the admin view); an
 * answer that asks to approve a call keeps the call in its draft (the reply job opens the approval once it is out).
 */
function post(
  scope: AnswerScope,
  claim: Claimed,
  prompt: Prompt,
  turn: Turn,
  text: string,
  { toolUse, stopped }: Pick<Writing, "toolUse" | "stopped">,
): Promise<PostedOutcome> {
  const { rt, job, kind } = scope;
  const { current, answered } = turn;
  scope.attempt.write(text, "answered", {
    id: current.id,
    ts: current.ts,
    answered,
    arrivals: claim.arrivals,
    promptTokens: prompt.tokens,
    droppedMessages: prompt.droppedMessages,
  });
  if (toolUse.approval) scope.attempt.asksApproval(toolUse.approval);
  return finishDraft(scope, {
    trace: {
      conversationId: job.conversationId,
      triggerId: job.trigger.id,
      reason: job.reason,
      kind,
      at: rt.now(),
      promptTokens: prompt.tokens,
      droppedMessages: prompt.droppedMessages,
      // A pasted file's text is read into the prompt, never kept: the trace shows its name only.
      messages: prompt.messages.map((m) => ({ ...m, content: withoutFileTexts(m.content) })),
      ...(toolUse.rounds.length > 0 ? { toolRounds: toolUse.rounds } : {}),
      ...(stopped ? { stopped } : {}),
      ...(toolUse.approval ? { approval: { tool: toolUse.approval.tool, arguments: toolUse.approval.arguments } } : {}),
    },
  });
}
