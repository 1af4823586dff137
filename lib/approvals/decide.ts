/**
 * @module
 * A person's answer to a confirm tool's question (lib/approvals/capability.ts): a ✅ or ❌ on one of the bot's
 * messages, read where the webhook or the Gateway delivers it, or on SMS a message that is just YES or NO, which
 * answers the place's pending question if it directly follows it (anything else said there since closes the question:
 * `closePendingQuestion`). When the message is such a question, still pending and not expired, and the answer is the
 * asker's, one script decides it (./answer-scripts.ts) and the continuation job is published (./continuation.ts).
 * A duplicate event, a double click or a redelivered webhook finds it decided: the same continuation is published
 * again, which QStash's deduplication (and the continuation's own claim) makes a no-op, and which makes up for a
 * publish that failed after the decision. Anyone else's answer does nothing, and nothing a tool or the model writes
 * can answer. A press of the question's controls (`pressControl`) decides through the same script, and is answered
 * to its presser alone: nothing for the asker's first press (the outcome replaces the controls), why not for
 * anyone else's, and that it is decided or expired for a repeat or a late one.
 */
import type { ConversationKey, InboundMessage } from "../message.ts";
import { jobSchema } from "../platforms/index.ts";
import { CONTROL_NOTES } from "../notices.ts";
import type { ApprovalAnswer, ControlId, ControlPress } from "./capability.ts";
import { openJob } from "../queue/sealed-job.ts";
import type { Runtime } from "../runtime.ts";
import type { Decided } from "./store.ts";

export async function answerApproval(rt: Runtime, answer: ApprovalAnswer): Promise<void> {
  await decideAndPublish(rt, answer);
}

const VERDICTS: Readonly<Record<ControlId, ApprovalAnswer["verdict"]>> = { approve: "approve", cancel: "deny" };

/**
 * A press of one of the question's controls; the note its presser alone is shown, or null when the press decided the
 * question (its outcome then replaces the controls, ./continuation.ts). `mention` names the asker as the platform does.
 */
export async function pressControl(
  rt: Runtime,
  press: ControlPress,
  mention: (person: string, name?: string) => string,
): Promise<string | null> {
  const verdict = Object.hasOwn(VERDICTS, press.controlId) ? VERDICTS[press.controlId as ControlId] : undefined;
  if (!verdict) return CONTROL_NOTES.gone;
  const answer = { place: press.place, messageId: press.messageRef, userId: press.person, verdict };
  // Controls are put on a question only once its approval is open: a press finding none is on one long gone.
  const decided = await decideAndPublish(rt, answer, "approval_control", false);
  if (decided === "absent" || decided === "kept") return CONTROL_NOTES.gone;
  const { asker } = decided;
  if (asker !== undefined)
    return CONTROL_NOTES.notYours(mention(asker, press.named?.id === asker ? press.named.name : undefined));
  if (decided.decided) return null;
  switch (decided.state) {
    case "approved":
    case "denied":
      return CONTROL_NOTES[decided.state];
    case "expired":
    case "closed":
      return CONTROL_NOTES.expired;
    // Its outcome is out (approved and run, cancelled or expired): the record no longer says which.
    case "done":
      return CONTROL_NOTES.done;
    default:
      return CONTROL_NOTES.gone;
  }
}

/**
 * The record's answer; its continuation is published when the approval is decided (now or before). No approval is
 * open under the message: with `keepEarly` the answer is `kept` (a question posted but not opened yet takes the
 * asker's as it opens, ./open.ts; a message that asks nothing never does), else `absent`.
 */
async function decideAndPublish(
  rt: Runtime,
  answer: ApprovalAnswer,
  event = "approval_reaction",
  keepEarly = true,
): Promise<Decided | "kept" | "absent"> {
  const { place, messageId, userId, verdict } = answer;
  const windowSeconds = rt.settings.APPROVAL_TTL_MINUTES * 60;
  const decided = await rt.approvals.decide(place, messageId, { who: userId, verdict, windowSeconds, keepEarly });
  const where = { platform: place.platform, tenant: place.tenant, message: messageId, verdict };
  if (decided === "kept" || decided === "absent") {
    rt.log.info(`${event}_${decided === "kept" ? "kept" : "ignored"}`, where);
    return decided;
  }
  rt.log.info(event, {
    ...where,
    state: decided.state,
    decided: decided.decided,
    ...(decided.asker !== undefined ? { asker: false } : {}),
  });
  if (publishes(decided)) await publishContinuation(rt, decided.job);
  return decided;
}

/**
 * The asker's answer, decided now or before: its continuation goes out (again for a retried webhook, whose first
 * publish may have been lost).
 */
function publishes(decided: Decided): decided is Decided & { job: string } {
  return decided.job !== undefined && (decided.state === "approved" || decided.state === "denied");
}

async function publishContinuation(rt: Runtime, sealed: string): Promise<void> {
  const job = await openJob(JSON.parse(sealed), rt.secrets.jobs, jobSchema);
  await rt.queue.publish({ ...job, kind: "approval" });
}

/**
 * A YES or NO in a place where questions are answered by a reply: true when it answered the place's pending
 * question, or the one just posted whose approval is about to open (the message is then the approval's, not a
 * question for the model); false when none is pending there,
 * or it is past answering (expired, closed, or its result already out): then it is an ordinary message.
 */
export async function answerApprovalReply(
  rt: Runtime,
  message: InboundMessage,
  verdict: ApprovalAnswer["verdict"],
): Promise<boolean> {
  const questionId = await rt.approvals.askedByReply(message.key);
  if (questionId === null) return false;
  const answer = { place: message.key, messageId: questionId, userId: message.author.id, verdict };
  const decided = await decideAndPublish(rt, answer);
  // Kept: the question it names is out, its approval about to open (./open.ts `questionPosted`).
  return decided === "kept" || (decided !== "absent" && publishes(decided));
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
  except: readonly string[] = [],
): Promise<boolean> {
  const sealed = await rt.approvals.closeAsked(place, except);
  if (sealed === null) return false;
  rt.log.info("approval_closed", { platform: place.platform, tenant: place.tenant, by });
  await publishContinuation(rt, sealed);
  return true;
}
