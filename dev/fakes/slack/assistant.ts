/**
 * @module
 * assistant.threads.setStatus / setSuggestedPrompts / setTitle, and the state people would see in each thread:
 * the status line with its loading messages (at most 10), cleared by `status: ""`, by the bot's reply in the
 * thread, or after two minutes without one; the suggested prompts and the title. Each change is kept with its
 * time for tests and benches.
 */
import { CHANNEL_SHAPE, refusal, type MethodContext, type SlackAnswer } from "./context.ts";
import { textParam } from "./request.ts";

const MAX_LOADING_MESSAGES = 10;
/** Slack removes a status that no message followed after two minutes. */
export const STATUS_TIMEOUT_MS = 120_000;

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
    let thread = this.#threads.get(key);
    if (!thread) this.#threads.set(key, (thread = { team, channel, thread_ts: threadTs, status: "", loading_messages: [], history: [] }));
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

function place(ctx: MethodContext, threadRequired: boolean): { channel: string; threadTs?: string } | string {
  const channel = textParam(ctx.params, "channel_id") ?? "";
  const threadTs = textParam(ctx.params, "thread_ts");
  if (!CHANNEL_SHAPE.test(channel)) return "channel_not_found";
  if (threadRequired && !threadTs) return "invalid_thread_ts";
  return { channel, ...(threadTs ? { threadTs } : {}) };
}

export function setStatus(ctx: MethodContext): SlackAnswer {
  const where = place(ctx, true);
  if (typeof where === "string") return refusal(where);
  const status = textParam(ctx.params, "status");
  const loading = ctx.params.loading_messages ?? [];
  if (status === undefined) return refusal("invalid_arguments");
  if (!Array.isArray(loading) || loading.length > MAX_LOADING_MESSAGES || !loading.every((m) => typeof m === "string")) {
    return refusal("invalid_arguments");
  }
  const thread = ctx.state.assistant.thread(ctx.team.id, where.channel, where.threadTs!);
  thread.status = status;
  thread.loading_messages = status ? (loading as string[]) : [];
  if (status) thread.statusSetAt = ctx.now;
  else delete thread.statusSetAt;
  thread.history.push({ at: ctx.now, status, by: "setStatus" });
  return { ok: true };
}

export function setSuggestedPrompts(ctx: MethodContext): SlackAnswer {
  const where = place(ctx, false);
  if (typeof where === "string") return refusal(where);
  const prompts = ctx.params.prompts;
  const valid = (p: unknown) => typeof p === "object" && p !== null && typeof (p as { title?: unknown }).title === "string" && typeof (p as { message?: unknown }).message === "string";
  if (!Array.isArray(prompts) || prompts.length === 0 || !prompts.every(valid)) return refusal("invalid_arguments");
  ctx.state.assistant.thread(ctx.team.id, where.channel, where.threadTs ?? "").prompts = prompts;
  return { ok: true };
}

export function setTitle(ctx: MethodContext): SlackAnswer {
  const where = place(ctx, true);
  if (typeof where === "string") return refusal(where);
  const title = textParam(ctx.params, "title");
  if (!title) return refusal("invalid_arguments");
  ctx.state.assistant.thread(ctx.team.id, where.channel, where.threadTs!).title = title;
  return { ok: true };
}
