/**
 * @module
 * The assistant.threads methods of the Slack fake (setStatus, setSuggestedPrompts, setTitle): their arguments
 * checked as Slack checks them, their effect kept by the threads' state (./assistant.ts).
 */
import { CHANNEL_SHAPE, refusal, type MethodContext, type SlackAnswer } from "./context.ts";
import { MAX_LOADING_MESSAGES } from "./assistant.ts";
import { textParam } from "./request.ts";

/** assistant.threads.setSuggestedPrompts takes up to four prompts. */
const MAX_PROMPTS = 4;

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
  if (
    !Array.isArray(loading) ||
    loading.length > MAX_LOADING_MESSAGES ||
    !loading.every((m) => typeof m === "string")
  ) {
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
  const filled = (v: unknown) => typeof v === "string" && v.trim() !== "";
  const valid = (p: unknown) =>
    typeof p === "object" &&
    p !== null &&
    filled((p as { title?: unknown }).title) &&
    filled((p as { message?: unknown }).message);
  // Slack's usage info: "up to four suggested prompts", each with a title and a message.
  if (!Array.isArray(prompts) || prompts.length === 0 || prompts.length > MAX_PROMPTS || !prompts.every(valid))
    return refusal("invalid_arguments");
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
