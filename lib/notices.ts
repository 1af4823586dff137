/**
 * @module
 * The bot's fixed notices: what it says instead of an answer (a failure, a limit, a forget, pictures it cannot
 * see). They are its own words but say nothing of the conversation, so recall never indexes them (BOT_NOTICES).
 */

/** What a person owed an answer hears when none could be given (the job's last retry failed). */
export const APOLOGY = "Sorry, I couldn't answer that just now. Please try again in a moment.";
/** The answer to "forget me", once everything about the person is gone. */
export const FORGET_CONFIRMATION =
  "Done: I have forgotten what I knew about you and what you said in our ongoing conversations.";
/**
 * Said once per hour to a person past the "forget me" limit (lib/limits/forget-rate.ts): it promises nothing it has not
 * done.
 */
export const FORGET_LIMIT_NOTICE =
  "You have asked me to forget you several times this past hour, and I did each time. I haven't forgotten what " +
  "you said since your last request: ask me again in an hour and I will.";
/** Said once per window to a person past the reply rate limit. */
export const RATE_LIMIT_NOTICE = "You're sending messages faster than I can answer; I'll be back in a minute.";
/** Said once per day to a tenant past its daily token budget. */
export const BUDGET_NOTICE = "The daily allowance for answers here is used up; I'll answer again tomorrow (UTC).";
/** Said once per day to a person past their share of the tenant's daily token budget. */
export const PERSON_BUDGET_NOTICE =
  "You've had your share of today's answers here; I'll answer you again tomorrow (UTC).";
/** Posted when the model still gives nothing for a message that must be answered. */
export const FALLBACK_ANSWER = "Sorry, I don't have a good answer to that right now.";
/** Said once per conversation, before the answer, when the model refused a message's pictures (lib/jobs/write.ts). */
export const IMAGES_UNSEEN_NOTICE = "I can't see images here, so I've answered from the text alone.";

/** How the bot's messages about a confirm tool's call begin (docs/tools.md): recall leaves them out (`isBotNotice`). */
export const APPROVAL_TAG = "⚠️ Approval needed:";
const APPROVAL_DONE_TAG = "✅ Done:";
const APPROVAL_CANCELLED_TAG = "❌ Cancelled:";

/**
 * The question that asks a person to approve a call: what it would do, in the tool's name and every argument that
 * would run (`args`, whole, in a code block: lib/jobs/tool-loop.ts never cuts them), and how to answer where they are
 * (a reaction, or on SMS a reply: the asker is the only person there).
 */
export function approvalQuestion(
  tool: string,
  args: string,
  minutes: number,
  way: "reaction" | "reply" | "controls" | "press",
): string {
  const how =
    way === "reply"
      ? "Reply YES to approve or NO to cancel"
      : way === "controls"
        ? "The person who asked can press Approve or Cancel (or react ✅ or ❌)"
        : way === "press"
          ? "The person who asked can press Approve or Cancel"
          : "The person who asked can react ✅ to approve or ❌ to cancel";
  const block = `\`\`\`\n${args}\n\`\`\``;
  return `${APPROVAL_TAG} may I run ${tool} with these arguments?\n\n${block}\n\n${how}, within ${minutes} minutes.`;
}
/** The approved call's result, as the tool gave it (its own words: the deployer's endpoint or code). */
export const approvalDone = (tool: string, result: string): string => `${APPROVAL_DONE_TAG} ${tool}: ${result}`;
/** `way`: how the person said no (their ❌, or their NO on SMS). */
export const approvalDenied = (tool: string, way: "reaction" | "reply" | "controls" | "press"): string =>
  `${APPROVAL_CANCELLED_TAG} ${tool} was not run (${way === "reply" ? "NO" : "❌"}).`;
export const approvalExpired = (tool: string, minutes: number): string =>
  `${APPROVAL_CANCELLED_TAG} ${tool} was not run: nobody approved it within ${minutes} minutes.`;

/** A question answered by a reply, closed by another message before any YES or NO (lib/approvals/decide.ts). */
export const approvalClosed = (tool: string): string =>
  `${APPROVAL_CANCELLED_TAG} the earlier request to run ${tool} was not approved; ask again if you still want it.`;
/** An approved call whose arguments are not the ones its question showed (lib/approvals/continuation.ts). */
export const approvalUnshown = (tool: string): string =>
  `${APPROVAL_CANCELLED_TAG} ${tool} was not run: its arguments are not the ones the question showed.`;

/** What replaces the question's controls once it is decided (`asker` as the platform mentions them). */
export const CONTROL_OUTCOMES = {
  approved: (asker: string) => `✅ Approved by ${asker} — running…`,
  denied: (asker: string) => `❌ Cancelled by ${asker}`,
  expired: () => "⌛ Nobody approved this in time: nothing was run.",
  closed: () => "❌ Closed: nothing was run.",
} as const;

/** The private answer to a 👍 or 👎 pressed under an answer (lib/feedback/press.ts), the first press or a repeat. */
export const FEEDBACK_THANKS = "Thanks — noted.";

/** A press answered to its presser alone (lib/approvals/decide.ts). */
export const CONTROL_NOTES = {
  notYours: (asker: string) => `Only ${asker} can approve this.`,
  approved: "This was already approved.",
  denied: "This was already cancelled.",
  expired: "This question has expired: nothing was run.",
  done: "This question is settled: its outcome is on it.",
  gone: "This question is no longer open.",
} as const;

/** The private answer to someone who may not stop an answer (lib/stop/press.ts); `admins`: a place admin may. */
export const stopRefused = (asker: string, admins: boolean): string =>
  `Only ${asker}${admins ? " or an admin" : ""} can stop this answer.`;

/** Every fixed notice: the texts recall leaves out. */
const BOT_NOTICES: ReadonlySet<string> = new Set([
  APOLOGY,
  FORGET_CONFIRMATION,
  FORGET_LIMIT_NOTICE,
  RATE_LIMIT_NOTICE,
  BUDGET_NOTICE,
  PERSON_BUDGET_NOTICE,
  FALLBACK_ANSWER,
  IMAGES_UNSEEN_NOTICE,
]);

/** The message after a confirm tool's question: its result or its cancellation. */
export function isApprovalFollowUp(text: string): boolean {
  return [APPROVAL_DONE_TAG, APPROVAL_CANCELLED_TAG].some((tag) => text.startsWith(tag));
}

/** A fixed notice, or one of the messages about a confirm tool's call: never indexed for recall. */
export function isBotNotice(text: string): boolean {
  return BOT_NOTICES.has(text) || text.startsWith(APPROVAL_TAG) || isApprovalFollowUp(text);
}
