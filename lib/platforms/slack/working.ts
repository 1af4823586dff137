/**
 * @module
 * The sign that the bot is working on a Slack answer: in an assistant thread (a DM thread) the assistant status
 * beside the bot's name ("Parley is thinking…"), which Slack clears when the answer comes; elsewhere a reaction
 * on the person's message (STATUS_REACTION), taken off once the answer starts to show. Each call takes its own
 * budget: `reactions.add` is Tier 3, `reactions.remove` only Tier 2, so in a burst of more answers a minute than
 * the remove's budget holds, the reaction stays on the answered message rather than be missing when it is needed
 * (the first sign within a second) or trip Slack's limit. Where the webhook put the sign up (`signUp`, having taken
 * the add's budget), the job only takes it down.
 */

import { errorMessage } from "../../log.ts";
import type { ReplyContext } from "../adapter.ts";
import type { AnswerFor, WorkingSign } from "../answer-stream.ts";
import { callSlack, type SlackMethods, slackErrorCode } from "./api.ts";
import type { SlackSettings } from "./settings.ts";
import type { SlackTarget } from "./target.ts";

const TIER_2 = 20;
const TIER_3 = 50;
const TIER_4 = 100;
const NONE: WorkingSign = { stop: async () => undefined };

export async function slackWorking(
  ctx: ReplyContext<SlackSettings>,
  target: SlackTarget,
  answer: AnswerFor,
): Promise<WorkingSign> {
  const args = { apiBaseUrl: ctx.config.SLACK_API_BASE_URL, botToken: await ctx.token(), fetch: ctx.fetch };
  // The error's name and Slack's code only: its message may carry what the call was about.
  const quietly = (what: string) => (err: unknown) =>
    ctx.log.warn("working_sign_failed", {
      platform: "slack",
      what,
      error: errorMessage(err),
      code: slackErrorCode(err) ?? null,
    });
  /** Puts the sign up within its method's budget, unless the webhook did; false when the budget had no room. */
  const putUp = async (method: string, perMinute: number, show: () => Promise<unknown>): Promise<boolean> => {
    if (answer.signUp) return true;
    // The webhook's mark goes up with the budget, before the call that shows the sign.
    if (!(await ctx.callBudget(method, perMinute, answer.signMark))) return false;
    await show();
    return true;
  };
  const threadTs = target.threadTs;
  if (target.channel.startsWith("D") && threadTs) {
    const status = (text: string) =>
      callSlack(args, "assistant.threads.setStatus", { channel_id: target.channel, thread_ts: threadTs, status: text });
    if (!(await putUp("assistant.threads.setStatus", TIER_4, () => status(ctx.config.STATUS_TEXT)))) return NONE;
    // Slack clears the status with the bot's reply; a quiet answer clears it itself.
    return { stop: () => status("").then(() => undefined, quietly("status")) };
  }
  const name = ctx.config.STATUS_REACTION;
  // The trigger's id is `<channel>:<ts>` (./parse.ts).
  const timestamp = answer.triggerId.slice(answer.triggerId.lastIndexOf(":") + 1);
  if (!name) return NONE;
  const reaction = { channel: target.channel, timestamp, name } satisfies SlackMethods["reactions.add"] &
    SlackMethods["reactions.remove"];
  if (!(await putUp("reactions.add", TIER_3, () => callSlack(args, "reactions.add", reaction)))) return NONE;
  return {
    async stop() {
      if (!(await ctx.callBudget("reactions.remove", TIER_2)))
        return ctx.log.info("working_sign_left", { platform: "slack", reason: "budget" });
      await callSlack(args, "reactions.remove", reaction).then(() => undefined, quietly("reaction"));
    },
  };
}
