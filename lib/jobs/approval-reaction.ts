/**
 * @module
 * A ✅ or ❌ on one of the bot's messages (lib/platforms/approvals.ts), read where the webhook or the Gateway
 * delivers it: when the message is a confirm tool's question, still pending and not expired, and the reaction is
 * the asker's, one script decides it (lib/tools/approvals.ts) and the continuation job is published
 * (./approval-job.ts). A duplicate event, a double click or a redelivered webhook finds it decided: the same
 * continuation is published again, which QStash's deduplication (and the continuation's own claim) makes a no-op,
 * and which makes up for a publish that failed after the decision. Anyone else's reaction does nothing, and
 * nothing a tool or the model writes can react.
 */
import type { ApprovalAnswer } from "../platforms/approvals.ts";
import type { Job } from "../queue/job.ts";
import { openJob } from "../queue/sealed-job.ts";
import type { Runtime } from "../runtime.ts";
import type * as z from "../zod.ts";
import { approvalsOf } from "./approval-ask.ts";

export async function answerApproval(rt: Runtime, answer: ApprovalAnswer, jobSchema: z.ZodMiniType<Job>): Promise<void> {
  const { place, messageId, userId, verdict } = answer;
  const decided = await approvalsOf(rt).decide(place, messageId, userId, verdict);
  const where = { platform: place.platform, tenant: place.tenant };
  if (!decided) return rt.log.info("approval_reaction_ignored", { ...where, reason: "not_a_question" });
  rt.log.info("approval_reaction", { ...where, verdict, state: decided.state, decided: decided.decided });
  if (!decided.job || (decided.state !== "approved" && decided.state !== "denied")) return;
  const job = await openJob(JSON.parse(decided.job), rt.secrets.jobs, jobSchema);
  await rt.queue.publish("approval", job);
}
