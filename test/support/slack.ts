/**
 * @module
 * Builds Slack Events API deliveries and interactions signed the way Slack signs them, and reads what the Slack
 * fake received.
 */
import { slackPressForm } from "../../dev/fakes/slack/press.ts";
import { slackHeaders } from "../../dev/signers/slack.ts";
import { SLACK_API_BASE_URL } from "./worker.ts";

export const SLACK_SIGNING_SECRET = "test-slack-signing-secret";
/** The Slack fake's control routes (`/__…`), beside its Web API. */
export const SLACK_CONTROL = SLACK_API_BASE_URL.replace(/\/api$/, "");
export const BOT_USER_ID = "UPARLEYBOT";

export async function signedSlackRequest(
  body: string,
  opts: { timestamp?: number; secret?: string; headers?: Record<string, string> } = {},
): Promise<Request> {
  return new Request("https://bot.test/slack/events", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(await slackHeaders(opts.secret ?? SLACK_SIGNING_SECRET, body, opts.timestamp)),
      ...opts.headers,
    },
    body,
  });
}

let seq = 0;
let lastDistinctMs = 0;

let placeSeq = 0;

/** A team and channel no other test uses (facts are kept per team): `T<tag><id>`, `C<tag><id>`. */
export function newSlackPlace(tag: string): { team: string; channel: string; id: string } {
  placeSeq += 1;
  const id = `${Date.now().toString(36).toUpperCase()}${placeSeq}`;
  return { team: `T${tag}${id}`, channel: `C${tag}${id}`, id };
}

/** A Slack ts with a millisecond no other call got: the engine orders messages by ms, and `seq` repeats them. */
export function distinctSlackTs(): string {
  lastDistinctMs = Math.max(Date.now(), lastDistinctMs + 5);
  return `${Math.floor(lastDistinctMs / 1000)}.${String(lastDistinctMs % 1000).padStart(3, "0")}000`;
}

/** A channel id no other test uses, starting with `prefix` (C…). */
export function newSlackChannel(prefix: string): string {
  seq += 1;
  return `${prefix}${Date.now().toString(36).toUpperCase()}${seq}`;
}

/** A mention of the bot by `user` in `channel`, as Slack delivers it. */
export function slackMention(args: { team: string; channel: string; user: string; text: string }): {
  body: string;
  ts: string;
} {
  return slackMessageEvent({ ...args, text: `<@${BOT_USER_ID}> ${args.text}` });
}

/** A `message` (or `app_mention`) event_callback as Slack sends it for a channel message. */
export function slackMessageEvent(args: {
  team: string;
  channel: string;
  user: string;
  text: string;
  ts?: string;
  type?: "message" | "app_mention";
  threadTs?: string;
  channelType?: "channel" | "group" | "im" | "mpim";
  /** Files pasted with it (test/support/files.ts): a `file_share` message. */
  files?: unknown[];
}): { body: string; ts: string } {
  // Like Slack: wall-clock seconds with microseconds, unique per message.
  const ts = args.ts ?? ((Date.now() * 1000 + (++seq % 1000)) / 1e6).toFixed(6);
  const event: Record<string, unknown> = {
    type: args.type ?? "message",
    user: args.user,
    text: args.text,
    ts,
    channel: args.channel,
    event_ts: ts,
    ...(args.type === "app_mention" ? {} : { channel_type: args.channelType ?? "channel" }),
    ...(args.threadTs ? { thread_ts: args.threadTs } : {}),
    ...(args.files ? { subtype: "file_share", files: args.files, upload: false } : {}),
  };
  const envelope = {
    token: "legacy-verification-token",
    team_id: args.team,
    api_app_id: "A0PARLEY",
    event,
    type: "event_callback",
    event_id: `Ev${ts.replace(".", "")}${args.type ?? "message"}`,
    event_time: Math.floor(Number(ts)),
    authorizations: [
      { enterprise_id: null, team_id: args.team, user_id: BOT_USER_ID, is_bot: true, is_enterprise_install: false },
    ],
    is_ext_shared_channel: false,
  };
  return { body: JSON.stringify(envelope), ts };
}

/** A `reaction_added` event_callback as Slack sends it: `user` put `reaction` on the bot's message `ts`. */
export function slackReactionEvent(args: {
  team: string;
  channel: string;
  user: string;
  reaction: string;
  ts: string;
}): string {
  const envelope = JSON.parse(slackMessageEvent({ ...args, text: "x" }).body) as { event: Record<string, unknown> };
  envelope.event = {
    type: "reaction_added",
    user: args.user,
    reaction: args.reaction,
    item_user: BOT_USER_ID,
    item: { type: "message", channel: args.channel, ts: args.ts },
    event_ts: distinctSlackTs(),
  };
  return JSON.stringify(envelope);
}

export interface SlackPost {
  channel: string;
  text: string;
  thread_ts?: string;
}

export async function slackPosts(channel: string): Promise<SlackPost[]> {
  const res = await fetch(`${SLACK_API_BASE_URL.replace(/\/api$/, "")}/__calls?channel=${encodeURIComponent(channel)}`);
  const calls = (await res.json()) as { body?: SlackPost }[] | SlackPost[];
  return calls.map((c) => ("body" in c && c.body ? c.body : (c as SlackPost)));
}

/** Scripts the Slack fake to fail matching posts (see dev/fakes/http.ts: `after`, `times`, `status`, `error`). */
export async function failSlackPosts(rule: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${SLACK_API_BASE_URL.replace(/\/api$/, "")}/__fail`, {
    method: "POST",
    body: JSON.stringify(rule),
  });
  if (!res.ok) throw new Error(`scripting the Slack fake failed: ${res.status}`);
}

/**
 * Slack's documented block_actions payload (test/fixtures/platforms/slack/block-actions.json): `user` pressing
 * `action` on message `ts` in the place, form-encoded as Slack posts it.
 */
export function slackBlockActionsBody(
  place: { team: string; channel: string },
  user: { id: string; name?: string },
  ts: string,
  action: { action_id: string; block_id?: string; value?: string },
): string {
  return slackPressForm({ ...place, user, ts, action });
}

/** POST /slack/interactions with `body`, signed with `secret` as Slack signs it. */
export async function signedSlackInteraction(body: string, secret = SLACK_SIGNING_SECRET): Promise<Request> {
  return new Request("https://bot.test/slack/interactions", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(await slackHeaders(secret, body)) },
    body,
  });
}
