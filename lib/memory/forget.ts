/**
 * @module
 * "Forget me": a trigger message that is nothing but that (after the bot's name or mention) and addressed the bot
 * (a mention, a DM, a command, any SMS) makes the bot forget everything it holds about the person in the tenant:
 * their facts, whatever their visibility, and in every live conversation they spoke in their messages, the bot's
 * answers that may retell them, the running summaries and the stored prompts (./erase-messages.ts), and what the
 * ingest script kept of their places where the platform cannot be read (lib/conversation/kept.ts); and the recall
 * passages about them or of the conversation where they asked (./recall/filters.ts). Only then does the bot
 * confirm. Their "forgotten before" record, kept for good (./forgotten.ts), keeps every later read of a place's
 * history from bringing back what they wrote, and a memory job that was already running from writing facts back
 * (./fact-store.ts). A person who asks too often is told so instead (lib/limits/forget-rate.ts). What stays:
 * docs/data-kept.md.
 */
import type { KeptMessages } from "../conversation/kept.ts";
import { isResetRequest } from "../conversation/reset.ts";
import { using } from "../errors.ts";
import type { ForgetRequests } from "../limits/forget-rate.ts";
import { personId } from "../keys.ts";
import { jobLogFields } from "../log-ids.ts";
import { errorMessage } from "../log.ts";
import type { BotIdentity, StoredMessage } from "../message.ts";
import { FORGET_CONFIRMATION, FORGET_LIMIT_NOTICE } from "../notices.ts";
import type { JobPayload } from "../queue/job.ts";
import type { Services } from "../services.ts";
import type { MessageEraser } from "./erase-messages.ts";
import type { FactStore } from "./fact-store.ts";
import type { ForgetMarks } from "./forgotten.ts";
import { forgetFilter } from "./recall/filters.ts";
import type { Recall } from "./recall/index-for.ts";

/** What a "forget me" reaches: the facts, the kept messages, the conversations, the recall passages. */
export type ForgetServices = Services & {
  facts: FactStore;
  forgotten: ForgetMarks;
  store: { kept: KeptMessages };
  eraser: MessageEraser;
  forgetRequests: ForgetRequests;
  recall: Recall | null;
};

/** Whole-message phrases; the reset matcher already knows how to compare a bare phrase after the bot's name. */
const FORGET_PHRASES = ["forget me", "forget about me"];

export function isForgetRequest(text: string, bot: BotIdentity): boolean {
  return isResetRequest(text, bot, FORGET_PHRASES);
}

/**
 * True when the job's own trigger asks to be forgotten and was addressed to the bot. Never the author's latest
 * message: "forget me" followed at once by a question is a forget and an answer, and an un-addressed "forget me"
 * after a mention is neither.
 */
export function asksToBeForgotten(job: JobPayload, messages: StoredMessage[]): boolean {
  if (!job.required) return false;
  const trigger = messages.find((m) => m.id === job.trigger.id);
  return trigger !== undefined && isForgetRequest(trigger.text, job.bot);
}

/** What the bot posts for a "forget me", and how the job ends; null: nothing (asked too often, and told already). */
export type ForgetReply = { text: string; outcome: "forgotten" | "rate_limited" } | null;

/**
 * Everything about the trigger's author in the tenant, up to the moment they asked, but the request itself: a
 * retry of a job whose confirmation failed must still find it. Idempotent: a retry redoes it (and is not counted
 * again against the person's allowance, lib/limits/forget-rate.ts). Past the allowance nothing is forgotten.
 */
export async function forgetPerson(rt: ForgetServices, job: JobPayload): Promise<ForgetReply> {
  const person = personId(job.key, job.trigger.authorId);
  const allowance = await using("redis", () => rt.forgetRequests.count(person, job.trigger.id));
  if (allowance !== "allowed") {
    rt.log.info("forget_rate_limited", { ...(await jobLogFields(rt, job)), notice: allowance === "notify" });
    return allowance === "notify" ? { text: FORGET_LIMIT_NOTICE, outcome: "rate_limited" } : null;
  }
  const erasure = { personId: job.trigger.authorId, through: job.trigger.ts, keep: job.trigger.id };
  // The record first: from then on no history read, memory job or recall index brings back what they wrote.
  await using("redis", () => rt.forgotten.forgetBefore(job.key, erasure.personId, erasure.through));
  await using("redis", () => rt.facts.forget(job.key, erasure.personId));
  // Where the platform's history cannot be read, what Parley kept of it (lib/conversation/kept.ts), before the
  // conversations: their erasure takes places out of the index that names those lists.
  const kept = job.keptHistory
    ? await using("redis", () => rt.store.kept.eraseEverywhere(job.key, job.key, erasure.personId, erasure.through))
    : 0;
  const erased = await using("redis", () => rt.eraser.eraseEverywhere(job.key, erasure));
  const passages = await forgetPassages(rt, job);
  rt.log.info("person_forgotten", { ...(await jobLogFields(rt, job)), ...erased, kept, passages });
  return { text: FORGET_CONFIRMATION, outcome: "forgotten" };
}

/** The person's recall passages in the tenant, by metadata filter (one request); a Vector failure retries the job. */
async function forgetPassages({ recall }: ForgetServices, job: JobPayload): Promise<number> {
  if (!recall) return 0;
  return recall.index.deleteWhere(recall.namespace(job.key), forgetFilter(job.trigger.authorId, job.conversationId));
}

/**
 * Once confirmed, the request goes too. It says nothing about the person, so a failure here only leaves it to
 * expire with its conversation (logged), never a second confirmation.
 */
export async function forgetTheRequest(rt: Services & { eraser: MessageEraser }, job: JobPayload): Promise<void> {
  try {
    await rt.eraser.eraseAt(job.key, { personId: job.trigger.authorId, through: job.trigger.ts });
  } catch (err) {
    rt.log.warn("forget_request_kept", { ...(await jobLogFields(rt, job)), error: errorMessage(err) });
  }
}
