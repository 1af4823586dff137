/**
 * @module
 * A Slack thread's parent: `conversations.replies` with the thread's `ts` and `limit=1` answers the thread's first
 * message, which is always its parent. Messages are named `<channel>:<ts>` (./parse.ts), so the parent's id says
 * where to look; only the conversation's own channel is ever read.
 */
import * as z from "../../zod.ts";
import type { ParentMessage } from "../../message.ts";
import type { ParentQuery } from "../adapter.ts";
import { GiveUp } from "../../errors.ts";
import type * as Slack from "@slack/web-api";
import { callSlack, type SlackAgrees, type SlackCallArgs, type SlackDisagreements } from "./api.ts";
import { readableMentions } from "./mentions.ts";
import { slackMessageId } from "./parse.ts";
import { slackId, slackTs } from "./schema.ts";
import { slackFileRefs } from "./files.ts";

/** A page of messages as `conversations.history` and `conversations.replies` list them (./history.ts reads it too). */
export const listedMessagesSchema = z.looseObject({
  messages: z.array(
    z.looseObject({
      ts: slackTs,
      subtype: z.optional(z.string()),
      user: z.optional(slackId),
      bot_id: z.optional(slackId),
      text: z._default(z.string(), ""),
      files: z.optional(z.array(z.unknown())),
      user_profile: z.optional(
        z.looseObject({ display_name: z.optional(z.string()), real_name: z.optional(z.string()) }),
      ),
    }),
  ),
});
type ListedMessage = z.output<typeof listedMessagesSchema>["messages"][number];

// `user_profile` is in Slack's message events but not in the SDK's replies and history types, nor `subtype` in its
// replies type (generated from samples): read when present, the author's id otherwise; every other field read is
// the SDK's.
// biome-ignore lint/correctness/noUnusedVariables: a compile-time check against the SDK's type
type RepliesAgrees = SlackAgrees<
  SlackDisagreements<
    ListedMessage,
    NonNullable<Slack.ConversationsRepliesResponse["messages"]>[number],
    "user_profile" | "subtype"
  >
>;
// biome-ignore lint/correctness/noUnusedVariables: a compile-time check against the SDK's type
type HistoryAgrees = SlackAgrees<
  SlackDisagreements<ListedMessage, NonNullable<Slack.ConversationsHistoryResponse["messages"]>[number], "user_profile">
>;

/** The parent `replyToId` names, when it is a message of the place's own channel; null when Slack has none. */
export async function fetchSlackParent(
  args: SlackCallArgs,
  { place, replyToId, bot }: ParentQuery,
): Promise<ParentMessage | null> {
  const [channel, ts] = replyToId?.split(":") ?? [];
  if (channel !== place.channel || !ts) return null;
  let answer: Record<string, unknown>;
  try {
    answer = await callSlack(args, "conversations.replies", { channel, ts, limit: 1, inclusive: true }, "form");
  } catch (err) {
    // The parent was deleted (or never was): a thread without one.
    if (err instanceof GiveUp && err.code === "thread_not_found") return null;
    throw err;
  }
  const listed = listedMessagesSchema.parse(answer);
  const parent = listed.messages.find((m) => m.ts === ts);
  const authorId = parent?.user ?? parent?.bot_id;
  if (!parent || !authorId) return null;
  const files = slackFileRefs(parent.files);
  return {
    id: slackMessageId(channel, ts),
    author: {
      id: authorId,
      name: parent.user_profile?.display_name || parent.user_profile?.real_name || authorId,
      isBot: Boolean(parent.bot_id),
    },
    text: readableMentions(parent.text, bot),
    ts: Math.round(parseFloat(ts) * 1000),
    ...(files.length ? { files } : {}),
  };
}
