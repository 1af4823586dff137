/**
 * @module
 * What was said in a Slack place before the bot was called: `conversations.history` for a channel or DM (`latest` =
 * the trigger, `oldest` = the window's start, `limit` = the window's count) or `conversations.replies` for a thread
 * (the thread as it stands up to the trigger, the parent first, however old). Read on from a question instead
 * (`after`), `oldest` is the question, kept in: a channel's newest `limit` since it, or a thread's first replies
 * from it on. One page, from the workspace's Tier 3 budget. A workspace that did not grant the history scope of
 * the kind of conversation (`channels:history`, `groups:history`, `mpim:history`, `im:history`), or a channel the
 * bot is not in, refuses it: the answer goes on without it.
 */
import { RetryLater } from "../../errors.ts";
import type { ConversationKey } from "../../message.ts";
import type { ReplyContext } from "../adapter.ts";
import type { HistoryMark, HistoryPage, HistoryQuery, PlaceMessage } from "../history.ts";
import { callSlack, slackErrorCode } from "./api.ts";
import { readableMentions } from "./mentions.ts";
import { listedMessagesSchema } from "./parent.ts";
import { slackMessageId } from "./parse.ts";
import type { SlackSettings } from "./settings.ts";
import { APP_ARCHIVES } from "./workspace-links.ts";

/** Tier 3, counted per workspace and shared with the thread-parent lookup (./index.ts). */
export const SLACK_TIER_3_PER_MINUTE = 50;
/** A spent budget is whole again within its minute. */
const BUDGET_WINDOW_SECONDS = 60;
/** A thread is read in one page of up to this many (Slack advises no more than 200); its last ones are kept. */
const THREAD_PAGE = 200;
/** Subtypes that are people's (or apps') words; every other subtype is the channel's own notice (a join, a topic). */
const WORDS_SUBTYPES: ReadonlySet<string> = new Set(["bot_message", "thread_broadcast", "file_share", "me_message"]);
/** Errors that say the bot may not read the place; the scope a `missing_scope` lacks is named by the channel's kind. */
const REFUSALS: ReadonlySet<string> = new Set(["missing_scope", "not_in_channel", "channel_not_found"]);

export async function readSlackHistory(ctx: ReplyContext<SlackSettings>, query: HistoryQuery): Promise<HistoryPage> {
  const { place } = query;
  const method = place.thread ? "conversations.replies" : "conversations.history";
  if (!(await ctx.callBudget(method, SLACK_TIER_3_PER_MINUTE)))
    throw new RetryLater(`no room in the workspace's ${method} budget`, BUDGET_WINDOW_SECONDS);
  const call = { apiBaseUrl: ctx.config.SLACK_API_BASE_URL, botToken: await ctx.token(), fetch: ctx.fetch };
  const window = windowOf(query);
  let answer: Record<string, unknown>;
  try {
    answer = place.thread
      ? await callSlack(
          call,
          "conversations.replies",
          { channel: place.channel, ts: place.thread, ...window.bounds, limit: THREAD_PAGE },
          "form",
        )
      : await callSlack(
          call,
          "conversations.history",
          { channel: place.channel, ...window.bounds, limit: query.limit },
          "form",
        );
  } catch (err) {
    const code = slackErrorCode(err);
    if (code === "thread_not_found") return { messages: [] };
    if (code && REFUSALS.has(code)) return { refused: code === "missing_scope" ? historyScope(place.channel) : code };
    throw err;
  }
  // History lists the newest first, a thread its parent then the oldest replies: both go oldest first, by the
  // whole ts (two messages of one millisecond differ in its microseconds).
  const listed = listedMessagesSchema
    .parse(answer)
    .messages.filter((m) => window.listed(m.ts) && (!m.subtype || WORDS_SUBTYPES.has(m.subtype)))
    .sort((a, b) => Number(a.ts) - Number(b.ts));
  const messages = listed.flatMap((m): PlaceMessage[] => {
    const authorId = m.user ?? m.bot_id;
    if (!authorId || !m.text.trim()) return [];
    const name = m.user_profile?.display_name || m.user_profile?.real_name || authorId;
    const id = slackMessageId(place.channel, m.ts);
    const inThread = place.thread && m.ts !== place.thread;
    return [
      {
        id,
        author: { id: authorId, name, isBot: Boolean(m.bot_id) },
        text: readableMentions(m.text, query.bot),
        ts: Math.round(parseFloat(m.ts) * 1000),
        ...(inThread ? { replyToId: slackMessageId(place.channel, place.thread!) } : {}),
      },
    ];
  });
  if (!place.thread || messages.length <= query.limit) return { messages };
  // Read on from a question, its thread's first replies; a thread longer than the window keeps its parent and its last.
  if ("after" in query) return { messages: messages.slice(0, query.limit) };
  return { messages: [messages[0]!, ...(query.limit > 1 ? messages.slice(-(query.limit - 1)) : [])] };
}

/**
 * The listing's bounds: back from the trigger (`latest`, which the page leaves out; a channel's since the window's
 * start), or on from a question (`oldest`, kept in; a thread's parent before it is left out).
 */
function windowOf(query: HistoryQuery): {
  bounds: { latest?: string; oldest?: string; inclusive?: boolean };
  listed(ts: string): boolean;
} {
  if ("after" in query) {
    const oldest = slackTs(query.after);
    return { bounds: { oldest, inclusive: true }, listed: (ts) => Number(ts) >= Number(oldest) };
  }
  const latest = slackTs(query.before);
  return {
    bounds: { latest, ...(query.place.thread ? {} : { oldest: (query.since / 1000).toFixed(6) }) },
    listed: (ts) => ts !== latest,
  };
}

/** A message's Slack ts, from its id (`<channel>:<ts>`), or its time when the id has none. */
const slackTs = (mark: HistoryMark): string => mark.id.split(":")[1] ?? (mark.ts / 1000).toFixed(6);

/** The history scope of the kind of conversation the channel's id names: public (C), private (G), DM (D). */
function historyScope(channel: string): string {
  if (channel.startsWith("D")) return "im:history";
  return channel.startsWith("G") ? "groups:history" : "channels:history";
}

/**
 * A message's permalink as chat.getPermalink writes it (`https://<domain>/archives/<channel>/p<ts without its dot>`,
 * a thread's reply with `?thread_ts=<parent>&cid=<channel>`), without a call per link: on app.slack.com, which opens
 * it in whichever workspace the reader is signed in to; the message that carries it goes out with it on the
 * workspace's own domain (./workspace-links.ts).
 */
export function slackPermalink(place: ConversationKey, messageId: string): string | undefined {
  const [channel, ts] = messageId.split(":");
  if (!channel || !ts || !/^\d+\.\d+$/.test(ts)) return undefined;
  const link = `${APP_ARCHIVES}${channel}/p${ts.replace(".", "")}`;
  return place.thread && place.thread !== ts ? `${link}?thread_ts=${place.thread}&cid=${channel}` : link;
}
