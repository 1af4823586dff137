/**
 * @module
 * The keys of what people do to the bot's messages and of what runs on a schedule (lib/keys.ts re-exports them):
 * a Stop pressed, an approval asked and answered, feedback pressed, a digest's slots, a person's own digest.
 */
import type { ConversationKey } from "../message.ts";
import { inTenant, SEP, type Tenancy, tenantId } from "./ids.ts";

/** Who pressed Stop on the streaming answer to trigger `id` (lib/jobs/write.ts): the job ends the answer there. */
export const stopKey = (prefix: string, where: Tenancy, id: string) => `${prefix}:stop:${inTenant(where, id)}`;

/**
 * A digest's keys (lib/digests/slots.ts): a slot's record (`slot`: its cron time, ms) and its attempt's claim, the
 * schedule's last slot, and (`index`) a tenant's schedule ids, which an uninstall's cleanup deletes at QStash.
 */
export function digestKeys(prefix: string, scheduleId: string, slot = 0) {
  const slotKey = `${prefix}:digest:${scheduleId}:${slot}`;
  return { slot: slotKey, claim: `${slotKey}:claim`, last: `${prefix}:digest:${scheduleId}:last` };
}
export const digestIndexKey = (prefix: string, where: Tenancy) => `${prefix}:digests:${tenantId(where)}`;
/** A person's own digest (`/parley digest me …`, lib/digests/personal.ts): its schedule id and plan. */
export const personalDigestKey = (prefix: string, where: Tenancy, person: string) =>
  `${prefix}:digest-me:${inTenant(where, person)}`;

/**
 * A confirm tool's call waiting for, or past, a person's ✅ or ❌ (lib/approvals/store.ts), under the id of the bot's
 * message that asks: `<channel>|<message id>` (a reaction names the channel and the message, never the thread).
 */
export function approvalKey(prefix: string, key: ConversationKey, questionId: string): string {
  return `${prefix}:approval:${inTenant(key, key.channel)}${SEP}${questionId}`;
}

/** Lives APPROVAL_TTL_MINUTES from the question: while it does, the asker may answer it (lib/approvals/store.ts). */
export function approvalWindowKey(prefix: string, key: ConversationKey, questionId: string): string {
  return `${prefix}:approval-open:${inTenant(key, key.channel)}${SEP}${questionId}`;
}

/**
 * Who answered the bot's message before its approval opened (the question is out, its record not yet): each person's
 * first ✅ or ❌ (or YES or NO), for the open to take the asker's (lib/approvals/answer-scripts.ts);
 * APPROVAL_TTL_MINUTES.
 */
export function approvalEarlyKey(prefix: string, key: ConversationKey, questionId: string): string {
  return `${prefix}:approval-early:${inTenant(key, key.channel)}${SEP}${questionId}`;
}

/** The place's latest question answered by a reply (YES or NO), its message id; lives APPROVAL_TTL_MINUTES. */
export const approvalAskedKey = (prefix: string, key: ConversationKey): string =>
  `${prefix}:approval-asked:${inTenant(key, key.channel)}`;

/** One person's press on one of the bot's answers, `<channel>|<message id>|<person>` (set once); the place's counts. */
export const feedbackKeys = (prefix: string, key: ConversationKey, messageId = "", person = "") => ({
  press: `${prefix}:feedback:${inTenant(key, key.channel)}${SEP}${messageId}${SEP}${person}`,
  counts: `${prefix}:feedback-counts:${inTenant(key, key.channel)}`,
});
