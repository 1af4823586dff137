/**
 * @module
 * Feedback on answers on Slack (lib/feedback/capability.ts): the answer's last message, as posted, becomes a
 * `markdown` block with a `context_actions` block under it holding Slack's `feedback_buttons` element (👍 and 👎,
 * each `value` the control's id), through chat.update (./controls.ts). A press comes back as a block_actions
 * interaction on that block (./interaction.ts); a 👎 under an unprompted answer is recorded as a 👎 reaction is.
 */
import type { ContextActionsBlock } from "@slack/types";
import type { FeedbackControl } from "../../feedback/capability.ts";
import type { ControlPress } from "../../approvals/capability.ts";
import { splitText } from "../../text/split.ts";
import type { ReplyContext } from "../adapter.ts";
import { updateRendered } from "./controls.ts";
import { slackNotYou } from "./reaction.ts";
import { SLACK_MAX_MESSAGE_CHARS, shownPart } from "./send.ts";
import type { SlackSettings } from "./settings.ts";
import type { SlackTarget } from "./target.ts";

/**
 * What the context actions block's id starts with (a press on it is feedback); the message's ts follows, for Slack
 * asks for a block id unique to each message.
 */
export const FEEDBACK_BLOCK_ID = "parley_feedback:";
const FEEDBACK_ACTION_ID = "feedback";

function feedbackBlock(ts: string, controls: readonly FeedbackControl[]): ContextActionsBlock {
  const button = (verdict: FeedbackControl["verdict"]) => {
    const control = controls.find((c) => c.verdict === verdict)!;
    return { text: { type: "plain_text" as const, text: control.label }, value: control.id };
  };
  return {
    type: "context_actions",
    block_id: `${FEEDBACK_BLOCK_ID}${ts}`,
    elements: [
      {
        type: "feedback_buttons",
        action_id: FEEDBACK_ACTION_ID,
        positive_button: button("up"),
        negative_button: button("down"),
      },
    ],
  };
}

export const slackFeedback = {
  // The last part as it was posted (its permalinks on the workspace's domain), so that the edit changes no word.
  async offer(
    ctx: ReplyContext<SlackSettings>,
    target: SlackTarget,
    ts: string,
    answer: string,
    controls: readonly FeedbackControl[],
  ): Promise<void> {
    const call = {
      apiBaseUrl: ctx.config.SLACK_API_BASE_URL,
      botToken: await ctx.token(),
      fetch: ctx.fetch,
      log: ctx.log,
    };
    const part = splitText(answer, SLACK_MAX_MESSAGE_CHARS).at(-1) ?? answer;
    await updateRendered(ctx, target, ts, await shownPart(call, ctx.tenant, part), feedbackBlock(ts, controls));
  },
  notYou: (press: ControlPress, now: number) => slackNotYou(press.place, press.messageRef, press.person, now),
};
