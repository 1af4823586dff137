/**
 * @module
 * What a space or thread said before the bot was called (or after a question nobody picked up): Parley's one
 * optional read of Google Chat. `spaces.messages.list` as the app needs the `chat.app.messages.readonly` scope,
 * which a Workspace administrator approves once for the app ("App authentication with administrator approval";
 * it then lists the space's public messages, never private ones). Where that is not approved Google refuses the
 * read, and the history is what the ingest script kept of the place (IngestOptions.keepHistory), as on Telegram:
 * in a space Chat sends the app only what mentions it, so that is the talk addressed to the bot.
 *
 * One page, newest first from the trigger back to the window's start (`create_time` filters, `orderBy` `create_time
 * DESC`; the filter takes `>` and `<` only), read oldest first; a thread by its `thread.name`. Each read takes one
 * call of the space's budget.
 */
import * as z from "../../zod.ts";
import type { HistoryContext, HistoryPage, HistoryQuery, PlaceMessage } from "../history.ts";
import { callChat, type ChatContext, refusedWith } from "./api.ts";
import { messageIdOf, messageTime } from "./place.ts";
import { messageSchema } from "./schema.ts";
import { CHAT_APP_MESSAGES_READ_SCOPE } from "./service-account.ts";

/** Of the space's 900 reads a minute (shared by every app in it), a small share for conversation starts. */
const LIST_PER_MINUTE = 30;
const PAGE_MAX = 1_000;

const listSchema = z.looseObject({
  messages: z.optional(z.array(z.unknown())),
  nextPageToken: z.optional(z.string()),
});

export async function readGoogleChatHistory(
  ctx: HistoryContext<ChatContext>,
  query: HistoryQuery,
): Promise<HistoryPage> {
  const fromKept = async () => ({ messages: await ctx.kept(query) });
  if (!(await ctx.callBudget("spaces.messages.list", LIST_PER_MINUTE))) return fromKept();
  let listed: unknown;
  try {
    listed = await callChat(ctx, "spaces.messages.list", {
      method: "GET",
      path: `spaces/${query.place.channel}/messages`,
      query: listQuery(query),
      scope: CHAT_APP_MESSAGES_READ_SCOPE,
    });
  } catch (err) {
    // Not approved (or the app may not read this space): what was kept is the place's history.
    if (!refusedWith(err, "PERMISSION_DENIED", "UNAUTHENTICATED", "FAILED_PRECONDITION")) throw err;
    ctx.log.info("google_chat_history_kept", { reason: err.reason });
    return fromKept();
  }
  const page = (listSchema.parse(listed ?? {}).messages ?? []).flatMap((raw): PlaceMessage[] => {
    const parsed = messageSchema.safeParse(raw);
    if (!parsed.success || !parsed.data.sender || !parsed.data.text?.trim()) return [];
    const m = parsed.data;
    const sender = m.sender!;
    return [
      {
        id: messageIdOf(m.name),
        author: { id: sender.name, name: sender.displayName || sender.name, isBot: sender.type === "BOT" },
        text: m.text!,
        ts: messageTime(m.createTime, ctx.now()),
      },
    ];
  });
  const messages = "after" in query ? page : page.filter((m) => m.id !== query.before.id).reverse();
  return { messages: messages.slice(0, query.limit) };
}

/** `create_time` bounds in RFC 3339 (a filter the list takes with `AND`), the thread, the order and the page. */
function listQuery(query: HistoryQuery): Record<string, string> {
  const at = (ms: number) => `"${new Date(ms).toISOString()}"`;
  const place = query.place;
  const inThread = place.thread ? ` AND thread.name = spaces/${place.channel}/threads/${place.thread}` : "";
  const window =
    "after" in query
      ? `create_time > ${at(query.after.ts - 1)}`
      : `create_time > ${at(query.since)} AND create_time < ${at(query.before.ts)}`;
  return {
    filter: `${window}${inThread}`,
    orderBy: "after" in query ? "create_time ASC" : "create_time DESC",
    pageSize: String(Math.min(Math.max(query.limit + 1, 1), PAGE_MAX)),
  };
}
