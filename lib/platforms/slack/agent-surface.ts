/**
 * @module
 * Slack's agent surface: the bot's DM as Slack shows AI apps (docs/platforms/slack.md, "The agent DM"). When a
 * person opens it (`app_home_opened` on the Messages tab, for apps whose manifest has `agent_view`;
 * `assistant_thread_started` for installs still on the legacy `assistant_view`) it gets the workspace's suggested
 * prompts (./suggested-prompts.ts) by `assistant.threads.setSuggestedPrompts`: without `thread_ts` under agent_view,
 * where Slack silently drops a call that names one, with the thread's under assistant_view. After a thread's first
 * answer the thread gets a title from the question (`assistant.threads.setTitle`). The events that say which channel
 * the person is looking at (`app_context_changed`, `assistant_thread_context_changed`) are acknowledged and unread:
 * an answer in the DM never reads a channel it was not asked in.
 */
import { errorMessage } from "../../log.ts";
import * as z from "../../zod.ts";
import type { ReplyContext } from "../adapter.ts";
import { jsonBody } from "../json-body.ts";
import { callSlack, slackErrorCode } from "./api.ts";
import { tenantOf } from "./lifecycle.ts";
import { eventCallbackSchema, slackId, slackTs } from "./schema.ts";
import type { SlackSettings } from "./settings.ts";
import { promptsOf } from "./suggested-prompts.ts";
import type { SlackTarget } from "./target.ts";

/** The events that only say what the person is viewing beside the DM. */
export const AGENT_CONTEXT_EVENTS: ReadonlySet<string> = new Set([
  "app_context_changed",
  "assistant_thread_context_changed",
]);

/**
 * Slack documents no limit on a thread's title: one line of this many characters reads whole in the History list.
 */
export const TITLE_MAX_CHARS = 80;

const homeOpenedSchema = z.looseObject({
  type: z.literal("app_home_opened"),
  tab: z.literal("messages"),
  channel: slackId,
});
const threadStartedSchema = z.looseObject({
  type: z.literal("assistant_thread_started"),
  assistant_thread: z.looseObject({ channel_id: slackId, thread_ts: slackTs }),
});
const openedEnvelopeSchema = z.extend(eventCallbackSchema, {
  event: z.union([homeOpenedSchema, threadStartedSchema]),
});

/** The DM a person opened: its workspace, channel and, on the legacy assistant surface, its thread. */
export interface AgentOpened {
  tenant: string;
  channel: string;
  threadTs?: string;
}

/** The DM opened, if the signed body says one was; null for anything else (the webhook flow takes it). */
export function slackAgentOpened(rawBody: string): AgentOpened | null {
  const body = jsonBody(rawBody);
  if (!body.ok) return null;
  const parsed = openedEnvelopeSchema.safeParse(body.value);
  if (!parsed.success) return null;
  const { event } = parsed.data;
  const tenant = tenantOf(parsed.data);
  if (event.type === "app_home_opened") return { tenant, channel: event.channel };
  const thread = event.assistant_thread;
  return { tenant, channel: thread.channel_id, threadTs: thread.thread_ts };
}

const args = async (ctx: ReplyContext<SlackSettings>) => ({
  apiBaseUrl: ctx.config.SLACK_API_BASE_URL,
  botToken: await ctx.token(),
  fetch: ctx.fetch,
});

/** Puts the workspace's prompts on the opened DM; never throws (the DM works without them). */
export async function offerSuggestedPrompts(ctx: ReplyContext<SlackSettings>, opened: AgentOpened): Promise<void> {
  const prompts = promptsOf(ctx.config.SUGGESTED_PROMPTS, opened.tenant);
  if (prompts.length === 0) return;
  try {
    await callSlack(await args(ctx), "assistant.threads.setSuggestedPrompts", {
      channel_id: opened.channel,
      prompts: [...prompts],
      ...(opened.threadTs ? { thread_ts: opened.threadTs } : {}),
    });
    ctx.log.info("slack_prompts_set", { tenant: opened.tenant, prompts: prompts.length });
  } catch (err) {
    ctx.log.warn("slack_prompts_failed", { error: errorMessage(err), code: slackErrorCode(err) ?? null });
  }
}

/** A thread's title from its question: one line, cut at a word within TITLE_MAX_CHARS. */
export function threadTitle(question: string): string {
  const line = question.replace(/\s+/g, " ").trim();
  if (line.length <= TITLE_MAX_CHARS) return line;
  const cut = line.slice(0, TITLE_MAX_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > TITLE_MAX_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Titles an assistant thread (a thread of the bot's DM) after its first answer; elsewhere nothing to title. */
export async function titleSlackThread(
  ctx: ReplyContext<SlackSettings>,
  target: SlackTarget,
  question: string,
): Promise<void> {
  const title = threadTitle(question);
  if (!target.channel.startsWith("D") || !target.threadTs || !title) return;
  await callSlack(await args(ctx), "assistant.threads.setTitle", {
    channel_id: target.channel,
    thread_ts: target.threadTs,
    title,
  });
}
