/**
 * @module
 * What a person saw of one answer, read from the fakes' own records (times are the fakes' clocks, the same
 * machine's): the first sign that the bot works (Slack reaction, status or first post; a Discord interaction's
 * deferred "thinking…" is the webhook's own answer, so it shows at acceptance; a Gateway answer's, the typing
 * indicator or else its first post; Google Chat's, its first post; Teams', its typing or status line), the first
 * text, the whole answer, the model's first token (its request's arrival plus the first-token delay), the API calls
 * and refusals.
 */
import { longAnswer } from "../../dev/local-model/long-answer.ts";
import { splitText } from "../../lib/text/split.ts";
import type { Question } from "./answers.ts";
import { seenOnGoogleChat } from "./google-chat.ts";
import { seenOnTeams } from "./teams.ts";
import { seenOnTelegram } from "./telegram.ts";

const SLACK_SIGNS: ReadonlySet<string> = new Set([
  "reactions.add",
  "assistant.threads.setStatus",
  "chat.startStream",
  "chat.postMessage",
]);
const DISCORD_MAX_CHARS = 2_000;

export interface Seen {
  signAt: number;
  firstTextAt: number;
  completeAt: number;
  calls: number;
  rateLimited: number;
}

interface SlackCall {
  at: number;
  method: string;
  ok: boolean;
  status: number | string;
}
interface SlackMessage {
  bot_id?: string;
  text: string;
  streaming_state?: string;
  revisions: { at: number }[];
}
interface DiscordCall {
  at: number;
  route: string;
  id?: string;
  content?: string;
}

const getJson = async <T>(url: string): Promise<T> => (await (await fetch(url)).json()) as T;
const unescapeSlack = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The answer as the person sees it once complete, or null while it is not. */
export async function seen(
  q: Question,
  acceptedAt: number,
  fakes: { slack: string; discord: string; telegram: string; googleChat: string; teams: string },
  tokens: number,
): Promise<Seen | null> {
  const expected = longAnswer(tokens);
  if (q.kind === "telegram_group" || q.kind === "telegram_private")
    return seenOnTelegram(fakes.telegram, Number(q.place), tokens);
  if (q.kind === "gchat_space" || q.kind === "gchat_dm") return seenOnGoogleChat(fakes.googleChat, q.place, tokens);
  if (q.kind === "teams_channel" || q.kind === "teams_dm") return seenOnTeams(fakes.teams, q.place, tokens);
  if (q.kind === "discord_interaction") {
    const calls = (await getJson<DiscordCall[]>(`${fakes.discord}/__calls?token=${encodeURIComponent(q.place)}`)).sort(
      (a, b) => a.at - b.at,
    );
    const parts = splitText(expected, DISCORD_MAX_CHARS);
    const originals = calls.filter((c) => c.route === "edit_original");
    const done =
      originals[originals.length - 1]?.content === parts[0] &&
      calls.filter((c) => c.route === "followup").length === parts.length - 1;
    if (!done) return null;
    return {
      signAt: acceptedAt,
      firstTextAt: calls[0]!.at,
      completeAt: calls[calls.length - 1]!.at,
      calls: calls.length,
      rateLimited: 0,
    };
  }
  if (q.kind === "discord_gateway") return seenInChannel(q, fakes.discord, splitText(expected, DISCORD_MAX_CHARS));
  const messages = (await getJson<SlackMessage[]>(`${fakes.slack}/__messages?channel=${q.place}`)).filter(
    (m) => m.bot_id,
  );
  const [message] = messages;
  if (messages.length !== 1 || message!.streaming_state === "streaming" || unescapeSlack(message!.text) !== expected)
    return null;
  const calls = await getJson<SlackCall[]>(`${fakes.slack}/__api?channel=${q.place}`);
  const signs = calls.filter((c) => c.ok && SLACK_SIGNS.has(c.method)).map((c) => c.at);
  return {
    signAt: Math.min(...signs),
    firstTextAt: message!.revisions[0]!.at,
    completeAt: message!.revisions[message!.revisions.length - 1]!.at,
    calls: calls.length,
    rateLimited: calls.filter((c) => c.status === 429).length,
  };
}

/**
 * A Gateway answer: typing, then its messages (the first edited as it grows), each ending as its part of the answer.
 */
async function seenInChannel(q: Question, discord: string, parts: string[]): Promise<Seen | null> {
  // What people see: the read of the channel when the conversation starts is no part of it.
  const calls = (await getJson<DiscordCall[]>(`${discord}/__calls?channelId=${q.place}`))
    .filter((c) => c.route !== "list_messages")
    .sort((a, b) => a.at - b.at);
  const posts = calls.filter((c) => c.route === "channel_message");
  const finalContent = (id: string | undefined) => calls.filter((c) => c.id === id).at(-1)?.content;
  if (posts.length !== parts.length || !posts.every((p, i) => finalContent(p.id) === parts[i])) return null;
  const writes = calls.filter((c) => c.route !== "typing");
  const typing = calls.find((c) => c.route === "typing");
  return {
    signAt: Math.min(typing?.at ?? Infinity, posts[0]!.at),
    firstTextAt: posts[0]!.at,
    completeAt: writes.at(-1)!.at,
    calls: calls.length,
    rateLimited: 0,
  };
}

/** When each of the model's passes for `q` was asked for, in order, ms (one per tool round more). */
export async function modelAskedTimes(q: Question, modelControl: string): Promise<number[]> {
  const requests = await getJson<{ receivedAt: number }[]>(`${modelControl}/__requests?match=${q.marker}`);
  return requests.map((r) => r.receivedAt).sort((a, b) => a - b);
}
