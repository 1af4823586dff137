/**
 * @module
 * A question nobody picked up, on Slack: the bot answers in a thread under it (or in the thread it was asked in),
 * and reads what followed it from Slack (conversations.replies for the question itself and its thread,
 * conversations.history for the channel after it), within the workspace's Tier 3 budgets, as a thread's parent is.
 */
import { GiveUp, RetryLater } from "../../errors.ts";
import type { StoredMessage } from "../../message.ts";
import type * as z from "../../zod.ts";
import type { ReplyContext } from "../adapter.ts";
import type { QuestionHistory, RescueCapability, RescuedQuestion } from "../rescue.ts";
import { callSlack, type SlackCallArgs } from "./api.ts";
import { readableMentions } from "./mentions.ts";
import { listedMessagesSchema } from "./parent.ts";
import { slackMessageId } from "./parse.ts";
import type { SlackSettings } from "./settings.ts";
import type { SlackTarget } from "./target.ts";

/** Slack's Tier 3, counted per workspace with every other job's calls. */
const TIER_3 = 50;
/** More than a busy channel says in RESCUE_AFTER_MINUTES' longest wait is not read. */
const LIMIT = 200;

const tsOf = (question: RescuedQuestion<SlackTarget>): string => question.id.slice(question.id.lastIndexOf(":") + 1);
const ms = (ts: string): number => Math.round(parseFloat(ts) * 1000);

/** The messages one listing call answers, taken from the workspace's budget of `method`; null when the thread is gone. */
async function list(ctx: ReplyContext<SlackSettings>, method: "conversations.replies" | "conversations.history", listing: (call: SlackCallArgs) => Promise<Record<string, unknown>>) {
  if (!(await ctx.callBudget(method, TIER_3))) throw new RetryLater(`no room in the workspace's ${method} budget`, 60);
  const call: SlackCallArgs = { apiBaseUrl: ctx.config.SLACK_API_BASE_URL, botToken: await ctx.token(), fetch: ctx.fetch };
  try {
    return listedMessagesSchema.parse(await listing(call)).messages;
  } catch (err) {
    // The question (a thread's parent) was deleted.
    if (err instanceof GiveUp && err.code === "thread_not_found") return null;
    throw err;
  }
}

export const slackRescue: RescueCapability<SlackTarget, ReplyContext<SlackSettings>> = {
  under(question) {
    const threadTs = question.key.thread ?? tsOf(question);
    return { key: { ...question.key, thread: threadTs }, target: { ...question.target, threadTs } };
  },

  async history(ctx, question, until): Promise<QuestionHistory> {
    const { channel } = question.key;
    const ts = tsOf(question);
    const stored = (m: z.output<typeof listedMessagesSchema>["messages"][number]): StoredMessage => {
      const authorId = m.user ?? m.bot_id ?? "unknown";
      const own = authorId === question.bot.userId;
      const authorName = m.user_profile?.display_name || m.user_profile?.real_name || authorId;
      return { id: slackMessageId(channel, m.ts), role: own ? "assistant" : "user", authorId, authorName, text: readableMentions(m.text, question.bot), ts: ms(m.ts) };
    };
    const within = (m: { ts: string }) => m.ts !== ts && ms(m.ts) > question.ts && ms(m.ts) <= until;
    // Asked in a thread: the thread is the place, and all that followed is in it.
    const replies = { channel, ts: question.key.thread ?? ts, limit: LIMIT };
    const thread = await list(ctx, "conversations.replies", (call) => callSlack(call, "conversations.replies", replies, "form"));
    const asked = thread?.find((m) => m.ts === ts);
    if (!thread || !asked) return { gone: true };
    if (question.key.thread) return { gone: false, question: stored(asked), later: thread.filter(within).map(stored), threadReplies: [] };
    const history = { channel, oldest: ts, limit: LIMIT };
    const channelAfter = (await list(ctx, "conversations.history", (call) => callSlack(call, "conversations.history", history, "form"))) ?? [];
    return {
      gone: false,
      question: stored(asked),
      later: channelAfter.filter(within).reverse().map(stored),
      threadReplies: thread.filter(within).map(stored),
    };
  },
};
