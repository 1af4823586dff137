/**
 * @module
 * The state people would see in each assistant thread (set by ./assistant-methods.ts):
 * the status line with its loading messages (at most 10), cleared by `status: ""`, by the bot's reply in the
 * thread, or after two minutes without one; the suggested prompts and the title. Each change is kept with its
 * time for tests and benches.
 */

/** Slack takes at most this many loading messages with a status. */
export const MAX_LOADING_MESSAGES = 10;
/** Slack removes a status that no message followed after two minutes. */
const STATUS_TIMEOUT_MS = 120_000;

export interface AssistantThread {
  team: string;
  channel: string;
  thread_ts: string;
  status: string;
  loading_messages: string[];
  statusSetAt?: number;
  title?: string;
  prompts?: unknown[];
  /** Every status change: set by the bot, or cleared (by `status: ""`, a reply, or the timeout). */
  history: { at: number; status: string; by: "setStatus" | "reply" | "timeout" }[];
}

export class AssistantThreads {
  #threads = new Map<string, AssistantThread>();

  thread(team: string, channel: string, threadTs: string): AssistantThread {
    const key = `${team}|${channel}|${threadTs}`;
    const known = this.#threads.get(key);
    if (known) return known;
    const thread: AssistantThread = {
      team,
      channel,
      thread_ts: threadTs,
      status: "",
      loading_messages: [],
      history: [],
    };
    this.#threads.set(key, thread);
    return thread;
  }

  /** The bot answered in the thread: its status goes away, as in Slack. */
  replied(team: string, channel: string, threadTs: string, now: number): void {
    const thread = this.#threads.get(`${team}|${channel}|${threadTs}`);
    if (!thread) return;
    this.#expire(thread, now);
    if (thread.status) this.#clear(thread, now, "reply");
  }

  /** Every thread's state as of `now` (expired statuses cleared). */
  all(now: number): AssistantThread[] {
    for (const thread of this.#threads.values()) this.#expire(thread, now);
    return [...this.#threads.values()];
  }

  reset(): void {
    this.#threads.clear();
  }

  #expire(thread: AssistantThread, now: number): void {
    if (thread.status && thread.statusSetAt !== undefined && now - thread.statusSetAt >= STATUS_TIMEOUT_MS) {
      this.#clear(thread, thread.statusSetAt + STATUS_TIMEOUT_MS, "timeout");
    }
  }

  #clear(thread: AssistantThread, at: number, by: "setStatus" | "reply" | "timeout"): void {
    thread.status = "";
    thread.loading_messages = [];
    delete thread.statusSetAt;
    thread.history.push({ at, status: "", by });
  }
}
