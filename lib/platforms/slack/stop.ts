/**
 * @module
 * Stop on a Slack answer as it is written (docs/platforms/slack.md, "Stop"). A native stream (a thread, the agent
 * DM) has Slack's own Stop, which Slack reports to the next append (`stopped_by_user`, ./stream.ts). An answer
 * posted and edited as it grows (a top-level channel reply) gets a Stop button on each progress edit: a `markdown`
 * block with the snapshot, an `actions` block with the button, whose `value` names the answer's trigger and asker
 * (Slack sends back what the bot set, signed). A press is the asker's, or a workspace admin's or owner's or the
 * channel creator's (as for `/parley`); it is decided as on every platform (lib/stop/press.ts): it sets the answer's
 * Stop mark, which the job reads with its next budget call and ends the answer there. Anyone else is told so
 * privately, and nothing changes.
 */
import type { ActionsBlock, KnownBlock } from "@slack/types";
import type { ControlPress } from "../../approvals/capability.ts";
import { stopControlId } from "../../stop/capability.ts";
import * as z from "../../zod.ts";
import type { ReplyContext } from "../adapter.ts";
import type { AnswerFor } from "../answer-stream.ts";
import { jsonBody } from "../json-body.ts";
import type { SlackSettings } from "./settings.ts";
import { slackMayManage } from "./slash.ts";

/** The actions block's id: a press there is a Stop, whatever else the message carries. */
const STOP_BLOCK_ID = "parley_stop";
const STOP_ACTION_ID = "stop";
/** chat.update's `text` (the notification's fallback) holds at most this. */
const FALLBACK_MAX_CHARS = 4_000;

/** What the button carries back: the answer's trigger (`t`) and its asker (`a`). */
const stopValueSchema = z.object({ t: z.string().check(z.minLength(1)), a: z.string().check(z.minLength(1)) });

/** A progress edit's arguments: the snapshot as a markdown block, the Stop button under it. */
export function withStopButton(markdown: string, answer: AnswerFor): { text: string; blocks: KnownBlock[] } {
  const button: ActionsBlock = {
    type: "actions",
    block_id: STOP_BLOCK_ID,
    elements: [
      {
        type: "button",
        action_id: STOP_ACTION_ID,
        text: { type: "plain_text", text: "Stop" },
        value: JSON.stringify({ t: answer.triggerId, a: answer.authorId }),
      },
    ],
  };
  return { text: markdown.slice(0, FALLBACK_MAX_CHARS), blocks: [{ type: "markdown", text: markdown }, button] };
}

/** The core's Stop id (lib/stop/capability.ts) of `action`, if it is a Stop button's with the value the bot set. */
export function stopIdOf(action: { block_id?: string | undefined; value?: string | undefined }): string | undefined {
  if (action.block_id !== STOP_BLOCK_ID || action.value === undefined) return undefined;
  const value = jsonBody(action.value);
  const parsed = value.ok ? stopValueSchema.safeParse(value.value) : null;
  return parsed?.success ? stopControlId({ triggerId: parsed.data.t, authorId: parsed.data.a }) : undefined;
}

/** Besides the asker, someone who may change the channel's settings (as for `/parley`) may stop an answer. */
export const slackStop = {
  async mayStopAny(ctx: ReplyContext<SlackSettings>, press: ControlPress): Promise<boolean> {
    const call = { apiBaseUrl: ctx.config.SLACK_API_BASE_URL, botToken: await ctx.token(), fetch: ctx.fetch };
    return slackMayManage(call, { userId: press.person, place: press.place }, ctx.log);
  },
};
