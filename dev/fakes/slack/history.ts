/**
 * @module
 * conversations.history (a channel's top-level messages, newest first) and conversations.replies (a thread, the
 * parent first), with `oldest`, `latest`, `inclusive`, `limit`, cursor paging and `include_all_metadata`, so that
 * a retry can ask "did my earlier post land?" by its metadata and a thread's parent can be fetched.
 */
import { CHANNEL_SHAPE, refusal, type MethodContext, type SlackAnswer, type SlackState } from "./context.ts";
import { wireMessage, type SlackMessage } from "./messages.ts";
import { flagParam, textParam, type SlackParams } from "./request.ts";
import { endExpiredStream } from "./streaming.ts";

const HISTORY = { defaultLimit: 100, maxLimit: 999 };
const REPLIES = { defaultLimit: 1_000, maxLimit: 1_000 };

export function conversationsHistory({ team, params, state, now }: MethodContext): SlackAnswer {
  const channel = textParam(params, "channel") ?? "";
  if (!CHANNEL_SHAPE.test(channel)) return refusal("channel_not_found");
  const all = listed(state, team.id, channel, now);
  const topLevel = all
    .filter((m) => !m.thread_ts || m.thread_ts === m.ts)
    .filter(within(params))
    .reverse();
  const page = listPage(topLevel, all, params, HISTORY);
  return page.ok ? { ...page, pin_count: 0, channel_actions_ts: null, channel_actions_count: 0 } : page;
}

export function conversationsReplies({ team, params, state, now }: MethodContext): SlackAnswer {
  const channel = textParam(params, "channel") ?? "";
  const ts = textParam(params, "ts");
  if (!CHANNEL_SHAPE.test(channel)) return refusal("channel_not_found");
  if (!ts) return refusal("invalid_arguments");
  const all = listed(state, team.id, channel, now);
  const parent = all.find((m) => m.ts === ts);
  if (!parent) return refusal("thread_not_found");
  // A reply's ts names only that reply; a parent's names the whole thread, which always starts with the parent.
  const thread =
    parent.thread_ts && parent.thread_ts !== parent.ts
      ? [parent]
      : [parent, ...all.filter((m) => m.thread_ts === ts && m.ts !== ts).filter(within(params))];
  return listPage(thread, all, params, REPLIES);
}

/** The channel's messages as of `now` (a stream past its lifetime shows as Slack ended it). */
function listed(state: SlackState, team: string, channel: string, now: number): SlackMessage[] {
  const all = state.messages.inChannel(team, channel);
  for (const message of all) endExpiredStream(message, now, state.settings());
  return all;
}

/** One page of `items` as Slack lists messages: `messages`, `has_more`, `response_metadata.next_cursor`. */
function listPage(
  items: SlackMessage[],
  all: SlackMessage[],
  params: SlackParams,
  limits: { defaultLimit: number; maxLimit: number },
): SlackAnswer {
  const page = paginate(items, params, limits);
  if (typeof page === "string") return refusal(page);
  return {
    ok: true,
    messages: page.items.map((m) =>
      wireMessage(m, all, { includeMetadata: flagParam(params, "include_all_metadata") }),
    ),
    has_more: page.nextCursor !== "",
    response_metadata: { next_cursor: page.nextCursor },
  };
}

/** `oldest` < ts < `latest` (both bounds included with `inclusive`); `latest` defaults to now. */
function within(params: SlackParams): (m: SlackMessage) => boolean {
  const oldest = Number(textParam(params, "oldest") ?? 0);
  const latest = Number(textParam(params, "latest") ?? Number.POSITIVE_INFINITY);
  const inclusive = flagParam(params, "inclusive");
  return (m) => {
    const ts = Number(m.ts);
    return inclusive ? ts >= oldest && ts <= latest : ts > oldest && ts < latest;
  };
}

/** Slack's cursors are opaque; here one is the offset of the next page, base64-encoded. */
function paginate<T>(
  items: T[],
  params: SlackParams,
  limits: { defaultLimit: number; maxLimit: number },
): { items: T[]; nextCursor: string } | string {
  const limit = Math.min(
    Math.max(Number(textParam(params, "limit") ?? limits.defaultLimit) || limits.defaultLimit, 1),
    limits.maxLimit,
  );
  const cursor = textParam(params, "cursor");
  let offset = 0;
  if (cursor) {
    const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, "base64").toString("utf8"));
    if (!match) return "invalid_cursor";
    offset = Number(match[1]);
  }
  const next = offset + limit;
  return {
    items: items.slice(offset, next),
    nextCursor: next < items.length ? Buffer.from(`offset:${next}`).toString("base64") : "",
  };
}
