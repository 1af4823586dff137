/**
 * @module
 * What the simulator page shows: the people's messages (recorded as they are sent), the bot's posts (read from the
 * platform fakes' `/__calls`, which record what people would see), and the Worker's decision log lines (fed from
 * wrangler's stdout). The page polls one snapshot of it.
 */
import { z } from "zod";
import type { ViewNode } from "./views/view.ts";

type SimPlatform = "slack" | "discord" | "sms" | "telegram" | "google-chat" | "teams";

/** One emoji on a message and who put it there, by name (the bot's working sign, a person's ✅). */
export interface Reaction {
  emoji: string;
  by: string[];
}

/**
 * A button on a bot's message as the platform has it: Slack's Block Kit button (`id` its action_id, `block` its
 * block_id: ./slack-blocks.ts), a Telegram inline keyboard's button (`id` its callback_data: ./telegram-posts.ts).
 */
export interface MessageControl {
  id: string;
  label: string;
  style?: "primary" | "danger";
  block?: string;
  /** What the button sends back when pressed, as the Worker set it: a Stop button names its answer, a
   * `feedback_buttons` element its verdict (`id` is then its action_id). */
  value?: string;
}

export interface ChatEntry {
  /** The platform message id as the Worker sees it (decisions are logged with it). */
  id: string;
  platform: SimPlatform;
  author: string;
  bot: boolean;
  /** What was sent, as it was sent (the platform's markup: ./views/). */
  text: string;
  /** What the platform's client draws of it (./views/view.ts); without one, `text` as it is. */
  view?: ViewNode[];
  /** The reactions on it, as the platform lists them. */
  reactions?: Reaction[];
  /** The buttons on the bot's message; Slack: its context line (an approval's outcome). */
  controls?: MessageControl[];
  note?: ViewNode[];
  /** Only this person sees it (a Slack slash command and its ephemeral answer): their handle. */
  visibleTo?: string;
  at: number;
  /** The admin view key of the conversation the message belongs to (`platform|tenant|channel|thread`). */
  place: string;
  /** Slack: the workspace (team id) the message is in. */
  workspace?: string;
  /** Slack: the message's own ts, and the thread it was written in. */
  ts?: string;
  threadTs?: string;
  /** SMS: the person's number (each phone is its own conversation). */
  phone?: string;
  /** Discord: the thread (a channel whose id is its starter message's) the message was written in. */
  threadId?: string;
  /** Discord: the interaction token whose @original the bot edits; `pending` until it does. */
  interactionToken?: string;
  pending?: boolean;
  /**
   * Telegram: where it was written, its chat, and its id in the chat (ids count per chat: `id` is `<chat>:<id>`);
   * Google Chat: the space or the DM, and the space's name; Teams: the channel, the group chat or the 1:1 chat, and its
   * conversation id.
   */
  spot?: "general" | "topic" | "private" | "space" | "dm" | "channel" | "group";
  channel?: string;
  messageId?: string;
}

/** The Worker log events the page shows; anything else in wrangler's output is ignored. */
const SHOWN_EVENTS = new Set([
  "decision",
  "job_published",
  "job_ended",
  "reply_posted",
  "duplicate_dropped",
  "job_gave_up",
  "recalled",
  "rescue_scheduled",
  "rescue_ended",
  "approval_opened",
  "approval_reaction",
  "approval_control",
  "approval_ended",
]);
const MAX_WORKER_EVENTS = 500;

const workerLogLine = z.looseObject({ event: z.string() });
export type WorkerEvent = z.infer<typeof workerLogLine> & { at: number };

export class Timeline {
  readonly entries: ChatEntry[] = [];
  readonly workerEvents: WorkerEvent[] = [];
  /** How many calls of each fake were already turned into entries. */
  readonly #seenCalls = new Map<string, number>();
  /** Ids of the entries "clear" forgot: the Slack fake still holds those posts, and they must not come back. */
  readonly #forgotten = new Set<string>();

  add(entry: ChatEntry): void {
    this.entries.push(entry);
  }

  /** One line of the Worker's output: kept when it is one of its JSON decision/job events. */
  observeLogLine(line: string): void {
    const start = line.indexOf("{");
    if (start < 0) return;
    let value: unknown;
    try {
      value = JSON.parse(line.slice(start));
    } catch {
      return;
    }
    const parsed = workerLogLine.safeParse(value);
    if (!parsed.success || !SHOWN_EVENTS.has(parsed.data.event)) return;
    this.workerEvents.push({ ...parsed.data, at: Date.now() });
    if (this.workerEvents.length > MAX_WORKER_EVENTS)
      this.workerEvents.splice(0, this.workerEvents.length - MAX_WORKER_EVENTS);
  }

  /** Calls of the fake named `fake` not seen before (the fakes only ever append). */
  takeNewCalls<T>(fake: string, calls: T[]): T[] {
    const seen = this.#seenCalls.get(fake) ?? 0;
    this.#seenCalls.set(fake, calls.length);
    return calls.length < seen ? calls : calls.slice(seen);
  }

  /** Forgets what the page shows; the fakes' calls already seen stay seen, so old posts do not come back. */
  clear(): void {
    for (const entry of this.entries) this.#forgotten.add(entry.id);
    this.entries.length = 0;
    this.workerEvents.length = 0;
  }

  /** Whether `clear` forgot the entry of this id (a post read again from a fake's store stays away). */
  forgot(id: string): boolean {
    return this.#forgotten.has(id);
  }

  /** Takes an entry off the page (a Telegram draft once its message came, or it faded). */
  remove(id: string): void {
    const at = this.entries.findIndex((e) => e.id === id);
    if (at >= 0) this.entries.splice(at, 1);
  }

  findByInteractionToken(token: string): ChatEntry | undefined {
    return this.entries.find((e) => e.interactionToken === token);
  }

  snapshot(): { entries: ChatEntry[]; workerEvents: WorkerEvent[] } {
    return { entries: this.entries, workerEvents: this.workerEvents };
  }
}
