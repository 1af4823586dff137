/**
 * @module
 * chat.postEphemeral: a message only `user` sees, in `channel` (or its thread), never kept in the channel's history
 * (conversations.history does not list it); `user_not_in_channel` for a user the fake knows is not there is not
 * modelled. The fake keeps each one (./ephemerals.ts) for `GET /__ephemerals?channel=&user=`.
 */
import { readBlocks } from "./blocks.ts";
import { CHANNEL_SHAPE, refusal, type MethodContext, type SlackAnswer } from "./context.ts";
import { textParam } from "./request.ts";

const USER_SHAPE = /^[UW][A-Z0-9]+$/;

export function postEphemeral({ team, params, now, state }: MethodContext): SlackAnswer {
  const channel = textParam(params, "channel") ?? "";
  const user = textParam(params, "user") ?? "";
  const text = textParam(params, "text") ?? "";
  const threadTs = textParam(params, "thread_ts") || undefined;
  if (!CHANNEL_SHAPE.test(channel)) return refusal("channel_not_found");
  if (!USER_SHAPE.test(user)) return refusal("user_not_found");
  const blocks = readBlocks(params.blocks);
  if (blocks === "invalid_blocks") return refusal(blocks);
  if (!text.trim() && !blocks) return refusal("no_text");
  const messageTs = state.messages.nextTs(now);
  state.ephemerals.add({
    team: team.id,
    channel,
    user,
    text,
    ...(threadTs ? { thread_ts: threadTs } : {}),
    message_ts: messageTs,
  });
  return { ok: true, message_ts: messageTs };
}
