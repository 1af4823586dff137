/**
 * @module
 * The messages of the Slack fake's workspaces, per team and channel: what the bot posted, streamed or edited, and
 * people's messages that tests put there (or that the bot referred to: a reaction on, or a reply to, a message the
 * fake was never shown becomes a placeholder, since people's messages reach the Worker, not the fake). Each
 * message keeps the time of every change of its text, for benches that time when text became visible.
 */
import { SLACK_FAKE_APP_ID } from "./workspaces.ts";

export interface SlackMetadata {
  event_type: string;
  event_payload: Record<string, unknown>;
}

interface StreamState {
  /** Set by the first content: a stream keeps to `markdown_text` or to `chunks`. */
  mode?: "markdown_text" | "chunks";
  chunks: unknown[];
  startedAt: number;
  /** The person pressed Stop (`POST /__stop_stream`): appends are refused with `stopped_by_user`. */
  stoppedByUser: boolean;
}

export interface SlackMessage {
  team: string;
  channel: string;
  ts: string;
  thread_ts?: string;
  user: string;
  bot_id?: string;
  /** Another app's post; the bot's own are the fake's app's. */
  app_id?: string;
  /** A message that is not a plain one (a join, a topic change, another bot's), as Slack lists it. */
  subtype?: string;
  /** The author's names, when the message carries them (one sent from a Slack client). */
  user_profile?: { display_name?: string; real_name?: string };
  text: string;
  /** How Slack reads `text`: `mrkdwn` (the `text` argument, and people's messages) or `markdown` (markdown_text). */
  markup?: "mrkdwn" | "markdown";
  metadata?: SlackMetadata;
  /** Block Kit blocks an update gave it (./blocks.ts). */
  blocks?: Record<string, unknown>[];
  streaming_state?: "in_progress" | "completed" | "errored";
  stream?: StreamState;
  reactions: { name: string; users: string[] }[];
  edited?: { user: string; ts: string };
  /** A person's message known only because the bot referred to it. */
  implicit?: boolean;
  /** The text after each change (what people saw then), its length, when and by which method. */
  revisions: { at: number; method: string; chars: number; text: string }[];
}

export class MessageStore {
  #byChannel = new Map<string, SlackMessage[]>();
  #lastTs = { seconds: 0, counter: 0 };

  /** Message timestamps like Slack's: seconds and a 6-digit counter, strictly increasing. */
  nextTs(now = Date.now()): string {
    const seconds = Math.floor(now / 1000);
    this.#lastTs =
      seconds > this.#lastTs.seconds
        ? { seconds, counter: 1 }
        : { seconds: this.#lastTs.seconds, counter: this.#lastTs.counter + 1 };
    return `${this.#lastTs.seconds}.${String(this.#lastTs.counter).padStart(6, "0")}`;
  }

  add(message: SlackMessage): SlackMessage {
    const list = this.#channel(message.team, message.channel);
    const at = list.findIndex((m) => Number(m.ts) > Number(message.ts));
    if (at < 0) list.push(message);
    else list.splice(at, 0, message);
    return message;
  }

  find(team: string, channel: string, ts: string): SlackMessage | undefined {
    return this.#byChannel.get(key(team, channel))?.find((m) => m.ts === ts);
  }

  /** The message at `ts`, or a placeholder for a person's message the fake was never shown. */
  findOrPlaceholder(team: string, channel: string, ts: string, now = Date.now()): SlackMessage {
    return (
      this.find(team, channel, ts) ??
      this.add({
        team,
        channel,
        ts,
        user: "U0UNKNOWN",
        text: "",
        reactions: [],
        implicit: true,
        revisions: [{ at: now, method: "placeholder", chars: 0, text: "" }],
      })
    );
  }

  /** The person deleted it (a message without replies: Slack then lists it nowhere). False when there was none. */
  remove(team: string, channel: string, ts: string): boolean {
    const list = this.#byChannel.get(key(team, channel));
    const at = list?.findIndex((m) => m.ts === ts) ?? -1;
    if (at >= 0) list!.splice(at, 1);
    return at >= 0;
  }

  /** Messages of the channel, oldest first. */
  inChannel(team: string, channel: string): SlackMessage[] {
    return [...(this.#byChannel.get(key(team, channel)) ?? [])];
  }

  all(): SlackMessage[] {
    return [...this.#byChannel.values()].flat();
  }

  changed(message: SlackMessage, method: string, now = Date.now()): void {
    message.revisions.push({ at: now, method, chars: message.text.length, text: message.text });
  }

  reset(): void {
    this.#byChannel.clear();
  }

  #channel(team: string, channel: string): SlackMessage[] {
    const known = this.#byChannel.get(key(team, channel));
    if (known) return known;
    const list: SlackMessage[] = [];
    this.#byChannel.set(key(team, channel), list);
    return list;
  }
}

const key = (team: string, channel: string) => `${team}|${channel}`;

/** A message as the Web API returns it; `metadata` only when asked for (`include_all_metadata`), as Slack does. */
export function wireMessage(
  message: SlackMessage,
  thread: SlackMessage[],
  opts: { includeMetadata: boolean },
): Record<string, unknown> {
  const replies = thread.filter((m) => m.thread_ts === message.ts && m.ts !== message.ts);
  return {
    type: "message",
    ...(message.subtype ? { subtype: message.subtype } : {}),
    user: message.user,
    ...(message.user_profile ? { user_profile: message.user_profile } : {}),
    text: message.text,
    ts: message.ts,
    team: message.team,
    ...(message.bot_id ? { bot_id: message.bot_id, app_id: message.app_id ?? SLACK_FAKE_APP_ID } : {}),
    ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
    ...(replies.length > 0
      ? {
          thread_ts: message.ts,
          reply_count: replies.length,
          reply_users: [...new Set(replies.map((r) => r.user))],
          latest_reply: replies.at(-1)!.ts,
        }
      : {}),
    ...(message.streaming_state ? { streaming_state: message.streaming_state } : {}),
    ...(message.blocks ? { blocks: message.blocks } : {}),
    ...(message.reactions.length > 0
      ? { reactions: message.reactions.map((r) => ({ name: r.name, users: r.users, count: r.users.length })) }
      : {}),
    ...(message.edited ? { edited: message.edited } : {}),
    ...(opts.includeMetadata && message.metadata ? { metadata: message.metadata } : {}),
  };
}
