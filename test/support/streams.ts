/**
 * @module
 * What a person sees of streamed answers on the Slack fake: the bot's messages in a place with their streaming
 * state and text changes, the Web API calls made there, and the texts the message showed while it grew.
 */
import { SLACK_API_BASE_URL } from "./worker.ts";

const SLACK_CONTROL = SLACK_API_BASE_URL.replace(/\/api$/, "");

export interface SlackFakeMessage {
  ts: string;
  thread_ts?: string;
  user: string;
  bot_id?: string;
  text: string;
  /** How Slack reads `text`: markdown_text (the bot's answers) or mrkdwn. */
  markup?: "mrkdwn" | "markdown";
  streaming_state?: "in_progress" | "completed" | "errored";
  reactions: { name: string; users: string[] }[];
  revisions: { at: number; method: string; chars: number; text: string }[];
}

export async function slackMessages(channel: string): Promise<SlackFakeMessage[]> {
  return (await (
    await fetch(`${SLACK_CONTROL}/__messages?${new URLSearchParams({ channel })}`)
  ).json()) as SlackFakeMessage[];
}

export const botMessages = async (channel: string) => (await slackMessages(channel)).filter((m) => m.bot_id);

export async function slackApiCalls(
  method: string,
  channel: string,
): Promise<{ ok: boolean; error?: string; status: number | string }[]> {
  return (await (await fetch(`${SLACK_CONTROL}/__api?${new URLSearchParams({ method, channel })}`)).json()) as {
    ok: boolean;
    error?: string;
    status: number;
  }[];
}

export async function configureSlackFake(config: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${SLACK_CONTROL}/__config`, { method: "POST", body: JSON.stringify(config) });
  if (!res.ok) throw new Error(`configuring the Slack fake failed: ${res.status}`);
}

/** Slack's escaping of &, < and > undone: the text as the person reads it. */
export const unescapeSlack = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** Watches the bot's message in `channel` until `done`, collecting each distinct text it showed. */
export async function watchBotText(channel: string, done: () => Promise<boolean>): Promise<string[]> {
  const seen: string[] = [];
  while (!(await done())) {
    const [message] = await botMessages(channel);
    if (message && seen[seen.length - 1] !== message.text) seen.push(message.text);
    await new Promise((r) => setTimeout(r, 40));
  }
  return seen;
}
