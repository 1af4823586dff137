/**
 * @module
 * A person's answer to a confirm tool's question (lib/approvals/capability.ts): a ✅ or ❌ on one of the bot's
 * messages, read where the webhook or the Gateway delivers it, or on SMS a message that is just YES or NO, which
 * answers the place's pending question if it directly follows it (anything else said there since closes the question:
 * `closePendingQuestion`). When the message is such a question, still pending and not expired, and the answer is the
 * asker's, one script decides it (lib/approvals/store.ts) and the continuation job is published (./continuation.ts).
 * A duplicate event, a double click or a redelivered webhook finds it decided: the same continuation is published
 * again, which QStash's deduplication (and the continuation's own claim) makes a no-op, and which makes up for a
 * publish that failed after the decision. Anyone else's answer does nothing, and nothing a tool or the model writes
 * can answer.
 */
import type { ConversationKey, InboundMessage } from "../message.ts";
import { jobSchema } from "../platforms/index.ts";
import type { ApprovalAnswer } from "./capability.ts";
import { openJob } from "../queue/sealed-job.ts";
import type { Runtime } from "../runtime.ts";

export async function answerApproval(rt: Runtime, answer: ApprovalAnswer): Promise<void> {
  await decideAndPublish(rt, answer);
}

/** True when the answer decided the approval (now or before) and its continuation was published. */
async function decideAndPublish(rt: Runtime, answer: ApprovalAnswer): Promise<boolean> {
  const { place, messageId, userId, verdict } = answer;
  const decided = await rt.approvals.decide(place, messageId, userId, verdict);
  const where = { platform: place.platform, tenant: place.tenant };
  if (!decided) {
    rt.log.info("approval_reaction_ignored", { ...where, reason: "not_a_question" });
    return false;
  }
  rt.log.info("approval_reaction", {
    ...where,
    message: messageId,
    verdict,
    state: decided.state,
    decided: decided.decided,
  });
  if (!decided.job || (decided.state !== "approved" && decided.state !== "denied")) return false;
  await publishContinuation(rt, decided.job);
  return true;
}

async function publishContinuation(rt: Runtime, sealed: string): Promise<void> {
  const job = await openJob(JSON.parse(sealed), rt.secrets.jobs, jobSchema);
  await rt.queue.publish({ ...job, kind: "approval" });
}

/**
 * A YES or NO in a place where questions are answered by a reply: true when it answered the place's pending
 * question (the message is then the approval's, not a question for the model); false when none is pending there,
 * or it is past answering (expired, closed, or its result already out): then it is an ordinary message.
 */
export async function answerApprovalReply(
  rt: Runtime,
  message: InboundMessage,
  verdict: ApprovalAnswer["verdict"],
): Promise<boolean> {
  const questionId = await rt.approvals.askedByReply(message.key);
  if (questionId === null) return false;
  return decideAndPublish(rt, { place: message.key, messageId: questionId, userId: message.author.id, verdict });
}

/**
 * Where questions are answered by a reply, a YES answers only the question it directly follows: any other message
 * in the place since, the person's or the bot's (`by`; never `except`, the question being posted), closes it, and
 * its continuation says once that it was not approved (./continuation.ts). True when this call closed one.
 */
export async function closePendingQuestion(
  rt: Runtime,
  place: ConversationKey,
  by: "person" | "bot",
  except?: string,
): Promise<boolean> {
  const sealed = await rt.approvals.closeAsked(place, except);
  if (sealed === null) return false;
  rt.log.info("approval_closed", { platform: place.platform, tenant: place.tenant, by });
  await publishContinuation(rt, sealed);
  return true;
}
