/**
 * @module
 * Stop on a Slack answer as it is written (docs/platforms/slack.md, "Stop"). A native stream (a thread, the agent
 * DM) has Slack's own Stop, which Slack reports to the next append (`stopped_by_user`, ./stream.ts). An answer
 * posted and edited as it grows (a top-level channel reply) gets a Stop button on each progress edit: a `markdown`
 * block with the snapshot, an `actions` block with the button, whose `value` names the answer's trigger and asker
 * (Slack sends back what the bot set, signed). A press is the asker's, or a workspace admin's or owner's or the
 * channel creator's (as for `/parley`); it sets the answer's Stop mark, which the job reads with its next budget
 * call and ends the answer there. Anyone else is told so privately, and nothing changes.
 */
import type { ActionsBlock, KnownBlock } from "@slack/types";
import type { Logger } from "../../log.ts";
import type { ConversationKey } from "../../message.ts";
import * as z from "../../zod.ts";
import type { AnswerFor } from "../answer-stream.ts";
import { jsonBody } from "../json-body.ts";
import type { SlackCallArgs } from "./api.ts";
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

/** A press of Stop: who (their id and a name to show), on which answer (its place, trigger and asker). */
export interface StopPress {
  place: ConversationKey;
  person: string;
  personName: string;
  triggerId: string;
  askerId: string;
  /** The thread the message is in, for the private note. */
  threadTs?: string;
}

/** The press, if `action` is a Stop button's with the value the bot set; null for any other action. */
export function stopPressOf(
  action: { block_id?: string | undefined; value?: string | undefined },
  who: { id: string; name: string },
  place: ConversationKey,
  threadTs: string | undefined,
): StopPress | null {
  if (action.block_id !== STOP_BLOCK_ID || action.value === undefined) return null;
  const value = jsonBody(action.value);
  const parsed = value.ok ? stopValueSchema.safeParse(value.value) : null;
  if (!parsed?.success) return null;
  const { t: triggerId, a: askerId } = parsed.data;
  return { place, person: who.id, personName: who.name, triggerId, askerId, ...(threadTs ? { threadTs } : {}) };
}

/** Whether `press` may stop the answer: its asker always, else someone who may change the channel's settings. */
export async function mayStop(call: SlackCallArgs, press: StopPress, log: Logger): Promise<boolean> {
  return press.person === press.askerId || slackMayManage(call, { userId: press.person, place: press.place }, log);
}
