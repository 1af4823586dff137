/**
 * @module
 * The continuation of a confirm tool's question (docs/tools.md), published on the asker's ✅ or ❌ (./decide.ts) and,
 * delayed, when the approval expires (./open.ts). It claims its own trigger (lib/conversation/follow-up-claim.ts,
 * through lib/jobs/with-claim.ts) and posts exactly one message of its own, through the answer's draft machinery
 * (lib/jobs/post.ts): the approved call's result, or the cancellation. The approved call's result is kept once it ends:
 * a retry finds it and posts it, never calling again. A retry that finds the call begun (`calling`) but no result (the
 * attempt died during the call) makes it again with the same Idempotency-Key, which the tool drops as a repeat
 * (docs/tools.md): an approved action is neither lost nor done twice. Only the arguments the question showed run: the
 * record keeps their SHA-256, and a call whose arguments hash otherwise is cancelled, never run.
 */
import { RetryLater } from "../errors.ts";
import { sha256Hex } from "../crypto.ts";
import {
  approvalClosed,
  approvalDenied,
  approvalDone,
  approvalExpired,
  approvalQuestion,
  approvalUnshown,
  CONTROL_OUTCOMES,
} from "../notices.ts";
import { errorMessage } from "../log.ts";
import { callTool } from "../tools/run.ts";
import type { Settled } from "./store.ts";
import { finishDraft } from "../jobs/post.ts";
import type { AnswerScope, JobScope } from "../jobs/scope.ts";
import { withClaim, type ClaimedWork } from "../jobs/with-claim.ts";

export type ApprovalOutcome =
  | "approval_done"
  | "approval_cancelled"
  | "already_posted"
  | "approval_gone"
  | "not_an_approval"
  | "unreachable";

/** While the approval is still pending (a continuation delivered early), QStash tries again this much later. */
const PENDING_RETRY_SECONDS = 60;

/** The continuation's one message, under its own trigger's claim (lib/jobs/with-claim.ts). */
const CONTINUATION: ClaimedWork<{ questionId: string; optedOut: boolean }, ApprovalOutcome> = {
  busy: "another attempt is posting this approval's answer",
  async claim({ rt, job }, token) {
    const questionId = job.approvalQuestion;
    if (questionId === undefined) return { status: "nothing", outcome: "not_an_approval" };
    const claim = await rt.store.replies.claimFollowUp(job.key, job.trigger, token);
    if (claim.status === "busy") return claim;
    if (claim.status === "done") return { status: "nothing", outcome: "already_posted" };
    return { status: "claimed", draft: claim.draft, read: { questionId, optedOut: claim.optedOut } };
  },
  async run(scope, { questionId, optedOut }) {
    let outcome: ApprovalOutcome;
    if (optedOut) outcome = "unreachable";
    else if (scope.attempt.written)
      outcome = (await finishDraft(scope)) === "approval_done" ? "approval_done" : "approval_cancelled";
    else outcome = await settleAndPost(scope, questionId);
    if (outcome === "approval_done" || outcome === "approval_cancelled")
      await scope.rt.approvals.finish(scope.job.key, questionId);
    return outcome;
  },
  marksHandled: () => true,
  ended: ({ rt, where }, outcome) => rt.log.info("approval_ended", { ...where, outcome }),
};

export function runApprovalJob(scope: JobScope): Promise<ApprovalOutcome> {
  return withClaim(scope, CONTINUATION);
}

async function settleAndPost(scope: AnswerScope, questionId: string): Promise<ApprovalOutcome> {
  const { rt, job, attempt } = scope;
  const settled = await rt.approvals.settle(job.key, questionId);
  // Its record outlives every delivery of its jobs: gone means long past, nothing left to say.
  if (!settled) return "approval_gone";
  const { tool } = settled.call;
  if (settled.state !== "done" && settled.state !== "pending") await settleControls(scope, questionId, settled);
  switch (settled.state) {
    case "done":
      return "already_posted";
    case "pending":
      throw new RetryLater("the approval is still pending", PENDING_RETRY_SECONDS);
    case "denied":
      attempt.write(approvalDenied(tool, scope.replier.approvalWay(job) ?? "reaction"), "approval_cancelled");
      break;
    case "expired":
      attempt.write(approvalExpired(tool, rt.settings.APPROVAL_TTL_MINUTES), "approval_cancelled");
      break;
    case "closed":
      attempt.write(approvalClosed(tool), "approval_cancelled");
      break;
    case "approved":
      // Only the arguments the question showed run: a call whose arguments are not those is refused.
      if (settled.call.shown !== (await sha256Hex(settled.call.arguments))) {
        rt.log.warn("approval_arguments_unshown", { ...scope.where, tool });
        attempt.write(approvalUnshown(tool), "approval_cancelled");
      } else attempt.write(await approvedResult(scope, questionId, settled), "approval_done");
      break;
  }
  return (await finishDraft(scope)) === "approval_done" ? "approval_done" : "approval_cancelled";
}

/**
 * The question's controls give way to its outcome, on the question itself, whoever decided it and however (a press, a
 * reaction, the expiry). A repeat edits alike; a platform that refuses leaves the controls, whose presses are then
 * told it is decided: the result still goes out.
 */
async function settleControls(scope: AnswerScope, questionId: string, settled: Settled): Promise<void> {
  const { rt, job, replier, where } = scope;
  const state = settled.state as keyof typeof CONTROL_OUTCOMES;
  const way = replier.approvalWay(job) ?? "reaction";
  const question = approvalQuestion(settled.call.tool, settled.call.arguments, rt.settings.APPROVAL_TTL_MINUTES, way);
  await replier.settleControls(job, questionId, question, CONTROL_OUTCOMES[state]).catch((err: unknown) => {
    rt.log.warn("approval_controls_unsettled", { ...where, question: questionId, error: errorMessage(err) });
  });
}

/** The approved call's result as posted: the one kept, or the call's, made now, once. */
async function approvedResult(scope: AnswerScope, questionId: string, settled: Settled): Promise<string> {
  const { rt, job, where } = scope;
  const { call } = settled;
  if (settled.result !== undefined) return approvalDone(call.tool, settled.result);
  const approvals = rt.approvals;
  // Only a log line tells a repeat: the call is the same, key and all.
  if (settled.calling || !(await approvals.beginCall(job.key, questionId, rt.now())))
    rt.log.warn("approval_call_repeated", { ...where, tool: call.tool });
  // Run only if the tenant still has the tool, as a confirm tool: TOOLS may have changed since the question.
  const tool = rt.tools.forTenant(job.key).find((t) => t.name === call.tool && t.confirm);
  const done = tool
    ? await callTool(
        tool,
        call.arguments,
        {
          services: rt,
          place: job.key,
          conversationId: job.conversationId,
          askerId: job.trigger.authorId,
          personalIds: job.logIds === "pseudonym",
          idempotencyKey: call.key,
          visibility: scope.visibility,
        },
        { ...where },
      )
    : ({ outcome: "not_offered", error: "this tool is no longer available here" } as const);
  const result = "result" in done ? done.result : `not done: ${done.error}`;
  await approvals.recordResult(job.key, questionId, result);
  return approvalDone(call.tool, result);
}
