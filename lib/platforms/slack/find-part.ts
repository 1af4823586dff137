/**
 * @module
 * "Did an earlier attempt's post of this part land?" on Slack: every part the bot posts carries message metadata
 * naming the trigger and the part's index; a later attempt that never heard back from `chat.postMessage` lists the
 * place's messages since that call (`conversations.history` for a channel, `conversations.replies` for a thread,
 * with `include_all_metadata`) and takes the one with that metadata instead of posting it again. Only the bot's own
 * messages count (its user and bot ids, from `auth.test`): another app could post the same metadata, since the
 * trigger's id is no secret, and its message must never be taken for the bot's answer.
 */
import * as z from "../../zod.ts";
import { GiveUp } from "../../errors.ts";
import type * as SlackEvents from "@slack/types";
import type * as Slack from "@slack/web-api";
import { optionalRead, type ReadLog } from "../optional-read.ts";
import { callSlack, type SlackAgrees, type SlackCallArgs, type SlackDisagreements } from "./api.ts";

/** The metadata event type of the bot's answer parts. */
export const ANSWER_PART_EVENT = "parley_answer_part";
/** Slack's clock and ours differ a little: look this far before the call began. */
const CLOCK_SLACK_MS = 10_000;
/** The parts of one answer, and whatever else was said meanwhile, fit in one page. */
const PAGE_SIZE = 200;

export interface SlackMetadata {
  event_type: string;
  event_payload: { trigger: string; part: number };
}

export function partMetadata(answerId: string, index: number): SlackMetadata {
  return { event_type: ANSWER_PART_EVENT, event_payload: { trigger: answerId, part: index } };
}

const listSchema = z.looseObject({
  messages: z.array(
    z.looseObject({
      ts: z.string(),
      text: z.optional(z.string()),
      user: z.optional(z.string()),
      bot_id: z.optional(z.string()),
      streaming_state: z.optional(z.string()),
      metadata: z.optional(
        z.looseObject({
          event_type: z.string(),
          event_payload: z.looseObject({ trigger: z.unknown(), part: z.unknown() }),
        }),
      ),
    }),
  ),
});

export interface SlackPlace extends SlackCallArgs, ReadLog {
  channel: string;
  threadTs?: string;
}

/** A message of the place as listed, with its metadata. */
export type ListedSlackMessage = z.output<typeof listSchema>["messages"][number];
/**
 * A listed message as Slack's SDK types it: the response types (generated from samples) lack `streaming_state`,
 * which @slack/types declares on the bot's message events.
 */
type Listed<R extends { messages?: unknown[] }> = NonNullable<R["messages"]>[number] &
  Pick<SlackEvents.BotMessageEvent, "streaming_state">;
// biome-ignore lint/correctness/noUnusedVariables: a compile-time check against the SDK's type
type HistoryAgrees = SlackAgrees<SlackDisagreements<ListedSlackMessage, Listed<Slack.ConversationsHistoryResponse>>>;
// biome-ignore lint/correctness/noUnusedVariables: a compile-time check against the SDK's type
type RepliesAgrees = SlackAgrees<SlackDisagreements<ListedSlackMessage, Listed<Slack.ConversationsRepliesResponse>>>;

/**
 * Part `index` of the answer to `answerId` (its `ts` and the text it shows) if it was posted since `since` (ms), else
 * null.
 */
export async function findSlackPart(
  place: SlackPlace,
  part: { answerId: string; index: number; since: number },
): Promise<{ ts: string; text: string } | null> {
  const listed = await slackMessagesSince(place, part.since);
  const found = listed && partAmong(listed, part.answerId, part.index);
  return found ? { ts: found.ts, text: found.text ?? "" } : null;
}

/** The answer's part `index` among listed messages, by its metadata. */
export function partAmong(
  messages: ListedSlackMessage[],
  answerId: string,
  index: number,
): ListedSlackMessage | undefined {
  return messages.find(
    (m) =>
      m.metadata?.event_type === ANSWER_PART_EVENT &&
      m.metadata.event_payload.trigger === answerId &&
      m.metadata.event_payload.part === index,
  );
}

const authSchema = z.looseObject({ user_id: z.string(), bot_id: z.optional(z.string()) });
// biome-ignore lint/correctness/noUnusedVariables: a compile-time check against the SDK's type
type AuthAgrees = SlackAgrees<SlackDisagreements<z.output<typeof authSchema>, Slack.AuthTestResponse>>;

/**
 * The bot's own messages in the place since `since` (ms), with their metadata; null when the bot may not look (no
 * history scope) or the listing failed (logged `part_lookup_unavailable`): then it posts again, as it would have
 * without the lookup.
 */
export async function slackMessagesSince(place: SlackPlace, since: number): Promise<ListedSlackMessage[] | null> {
  const { channel, threadTs } = place;
  const oldest = ((since - CLOCK_SLACK_MS) / 1000).toFixed(6);
  const look = async () => {
    const [listed, me] = await Promise.all([
      threadTs
        ? callSlack(
            place,
            "conversations.replies",
            { channel, ts: threadTs, oldest, include_all_metadata: true, limit: PAGE_SIZE },
            "form",
          )
        : callSlack(
            place,
            "conversations.history",
            { channel, oldest, include_all_metadata: true, limit: PAGE_SIZE },
            "form",
          ),
      callSlack(place, "auth.test", {}, "form"),
    ]);
    const bot = authSchema.parse(me);
    return listSchema
      .parse(listed)
      .messages.filter((m) => m.user === bot.user_id || (bot.bot_id !== undefined && m.bot_id === bot.bot_id));
  };
  try {
    return (await optionalRead("part_lookup", { log: place.log, fields: { channel } }, look)) ?? null;
  } catch (err) {
    // Without the history scope the bot cannot look.
    if (err instanceof GiveUp) return null;
    throw err;
  }
}
