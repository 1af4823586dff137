/**
 * @module
 * What was said in a Discord channel, thread or DM before the bot was called: Get Channel Messages, one page, up
 * to and with the trigger (`before` = the trigger's id + 1), newest first. Discord lists nothing at all to a bot
 * without Read Message History in the channel (and refuses one without View Channel): a page without the trigger
 * message itself says so, and the answer goes on without the history. A thread's starter message in its parent
 * channel stays the thread's parent (./parent.ts); a forum post's, in the thread itself, is listed here. Read on
 * from a question instead (`after`), the page starts with the question; one without it, the question was deleted
 * (and an empty one cannot tell that from a channel the bot may not read: it counts as the latter).
 */
import { RetryLater } from "../../errors.ts";
import * as z from "../../zod.ts";
import type { ConversationKey } from "../../message.ts";
import type { ReplyContext } from "../adapter.ts";
import type { HistoryPage, HistoryQuery, PlaceMessage } from "../history.ts";
import { readableContent } from "./gateway/message.ts";
import { DISCORD_ERROR, DiscordRefused, discordRequest } from "./rest.ts";
import { DM_TENANT_PREFIX } from "./parse.ts";
import { displayName, messageSchema } from "./schema.ts";
import type { DiscordSettings } from "./settings.ts";

/** Our own share of Discord's per-route limits for reading a server's messages, per minute. */
const LIST_MESSAGES_PER_MINUTE = 50;
/** A spent budget is whole again within its minute. */
const BUDGET_WINDOW_SECONDS = 60;
/** Get Channel Messages lists at most 100. */
const MAX_LIMIT = 100;
/** DEFAULT and REPLY are people's words; every other type is a system message (a join, a pin, a thread created). */
const WORDS_TYPES: ReadonlySet<number> = new Set([0, 19]);

export async function readDiscordHistory(
  ctx: ReplyContext<DiscordSettings>,
  query: HistoryQuery,
): Promise<HistoryPage> {
  const { place } = query;
  if (!(await ctx.callBudget("list messages", LIST_MESSAGES_PER_MINUTE)))
    throw new RetryLater("no room in the server's list messages budget", BUDGET_WINDOW_SECONDS);
  const window = windowOf(query);
  let body: unknown;
  try {
    body = await discordRequest({
      apiBaseUrl: ctx.config.DISCORD_API_BASE_URL,
      method: "GET",
      path: `/channels/${place.channel}/messages?${window.anchor}&limit=${window.limit}`,
      what: "list a channel's messages",
      botToken: await ctx.token(),
      fetch: ctx.fetch,
    });
  } catch (err) {
    if (err instanceof DiscordRefused && err.discordCode === DISCORD_ERROR.MISSING_ACCESS)
      return { refused: "VIEW_CHANNEL" };
    if (err instanceof DiscordRefused && err.discordCode === DISCORD_ERROR.MISSING_PERMISSIONS)
      return { refused: "READ_MESSAGE_HISTORY" };
    throw err;
  }
  const listed = z.array(messageSchema).parse(body);
  if (listed.length === 0 && query.triggerListed) return { refused: "READ_MESSAGE_HISTORY" };
  const messages = listed.flatMap((m): PlaceMessage[] => {
    const ts = Date.parse(m.timestamp);
    if (!window.listed(m.id, ts) || !WORDS_TYPES.has(m.type)) return [];
    const text = readableContent(m, query.bot);
    if (!text.trim()) return [];
    const replyToId =
      m.message_reference?.type === 0 && m.message_reference.channel_id === place.channel
        ? m.message_reference.message_id
        : undefined;
    return [
      {
        id: m.id,
        author: {
          id: m.author.id,
          name: displayName(m.author, m.member),
          isBot: Boolean(m.author.bot || m.webhook_id),
        },
        text,
        ts,
        ...(replyToId ? { replyToId } : {}),
      },
    ];
  });
  return { messages: messages.sort((a, b) => a.ts - b.ts).slice(-query.limit) };
}

/**
 * The listing's anchor: before the trigger's id + 1 (the trigger listed, then left out; since the window's start), or
 * after a question's id - 1 (the question listed, and kept: the first `limit` from it on).
 */
function windowOf(query: HistoryQuery): { anchor: string; limit: number; listed(id: string, ts: number): boolean } {
  if ("after" in query)
    return {
      anchor: `after=${BigInt(query.after.id) - 1n}`,
      limit: Math.min(MAX_LIMIT, query.limit),
      listed: () => true,
    };
  const { before, since } = query;
  return {
    anchor: `before=${/^\d+$/.test(before.id) ? BigInt(before.id) + 1n : snowflakeAt(before.ts)}`,
    limit: Math.min(MAX_LIMIT, query.limit + 1),
    listed: (id, ts) => id !== before.id && ts >= since,
  };
}

/** Discord's epoch (2015-01-01, ms): a snowflake's top 42 bits count from it. */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/** The first snowflake of millisecond `ts`: the bound of a read that ends at a time, no message (a digest's slot). */
const snowflakeAt = (ts: number): bigint => (BigInt(Math.floor(ts)) - DISCORD_EPOCH_MS) << 22n;

/** A message's jump link: `https://discord.com/channels/<guild, or @me in a DM>/<channel>/<message>`. */
export function discordJumpLink(place: ConversationKey, messageId: string): string | undefined {
  if (!/^\d+$/.test(messageId)) return undefined;
  const guild = place.tenant.startsWith(DM_TENANT_PREFIX) ? "@me" : place.tenant;
  return `https://discord.com/channels/${guild}/${place.channel}/${messageId}`;
}
