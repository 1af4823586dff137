/**
 * @module
 * An approval's controls on Slack (lib/approvals/capability.ts): the question, as posted, becomes a `markdown` block
 * with an `actions` block of two buttons under it (`style` primary and danger), through chat.update with the rendered
 * text as the notification's fallback; once decided, the buttons give way to a `context` line with the outcome. A
 * button's `action_id` is the control's id alone (`approve`, `cancel`): which question it answers is the message the
 * press names. A note to a presser alone goes through chat.postEphemeral, after the route's 200.
 */
import type { ActionsBlock, ContextBlock, KnownBlock } from "@slack/types";
import type { Control, ControlPress } from "../../approvals/capability.ts";
import type { ReplyContext } from "../adapter.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { callSlack, type SlackCallArgs } from "./api.ts";
import { slackMarkdown } from "./format.ts";
import type { SlackSettings } from "./settings.ts";
import type { SlackTarget } from "./target.ts";

/** The actions block's id: a press of any other block is not Parley's. */
export const APPROVAL_BLOCK_ID = "parley_approval";
const STYLES = { approve: "primary", cancel: "danger" } as const;
/** chat.update's `text` (the fallback) holds at most this. */
const FALLBACK_MAX_CHARS = 4_000;

async function call(ctx: ReplyContext<SlackSettings>): Promise<SlackCallArgs> {
  return { apiBaseUrl: ctx.config.SLACK_API_BASE_URL, botToken: await ctx.token(), fetch: ctx.fetch };
}

/** The question's own blocks, then `below`; the rendered question is also the notification's text. */
const update = (
  ctx: ReplyContext<SlackSettings>,
  target: SlackTarget,
  ts: string,
  question: string,
  below: KnownBlock,
) => updateRendered(ctx, target, ts, slackMarkdown(question), below);

/** Message `ts` as `markdown` (already rendered: an answer's part as posted, ./feedback.ts), then `below`. */
export async function updateRendered(
  ctx: ReplyContext<SlackSettings>,
  target: SlackTarget,
  ts: string,
  markdown: string,
  below: KnownBlock,
): Promise<void> {
  const blocks: KnownBlock[] = [{ type: "markdown", text: markdown }, below];
  const args = await call(ctx);
  await waitingOutRateLimits(() =>
    callSlack(args, "chat.update", {
      channel: target.channel,
      ts,
      text: markdown.slice(0, FALLBACK_MAX_CHARS),
      blocks,
    }),
  );
}

function buttons(controls: readonly Control[]): ActionsBlock {
  return {
    type: "actions",
    block_id: APPROVAL_BLOCK_ID,
    elements: controls.map((control) => ({
      type: "button",
      action_id: control.id,
      text: { type: "plain_text", text: control.label },
      style: STYLES[control.style],
    })),
  };
}

const outcomeLine = (outcome: string): ContextBlock => ({
  type: "context",
  elements: [{ type: "mrkdwn", text: outcome }],
});

export const slackControls = {
  offer: (
    ctx: ReplyContext<SlackSettings>,
    target: SlackTarget,
    ts: string,
    question: string,
    controls: readonly Control[],
  ) => update(ctx, target, ts, question, buttons(controls)),
  // The outcome and the notes are the bot's own words with a mention in Slack's syntax: sent as they are.
  settle: (ctx: ReplyContext<SlackSettings>, target: SlackTarget, ts: string, question: string, outcome: string) =>
    update(ctx, target, ts, question, outcomeLine(outcome)),
  async answer(ctx: ReplyContext<SlackSettings>, press: ControlPress, note: string | null): Promise<Response> {
    if (note !== null) {
      const args = await call(ctx);
      await callSlack(args, "chat.postEphemeral", {
        channel: press.place.channel,
        user: press.person,
        text: note,
        ...(press.reply ? { thread_ts: press.reply } : {}),
      });
    }
    return new Response(null, { status: 200 });
  },
  mention: (person: string) => `<@${person}>`,
};
