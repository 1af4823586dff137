/**
 * @module
 * Slack's text streaming: chat.startStream / chat.appendStream / chat.stopStream with their arguments and errors
 * (recipients for channel streams, `markdown_text` or `chunks` but never both nor mixed within a stream, the
 * 12,000-character limit, `message_not_in_streaming_state` once stopped or expired, `stopped_by_user`), and
 * `unknown_method` for all three where the settings make a team act as an older workspace. `streaming_state` takes
 * Slack's values (@slack/types' MessageEvent): `in_progress` while open, `completed` once stopped, `errored` for a
 * stream Slack ended unfinished (here: left open past its lifetime).
 */
import { readMetadata } from "./chat.ts";
import { botAuthor, CHANNEL_SHAPE, refusal, type MethodContext, type SlackAnswer } from "./context.ts";
import { wireMessage, type SlackMessage } from "./messages.ts";
import { textParam } from "./request.ts";
import type { SlackSettings } from "./settings.ts";

export const STREAMING_METHODS: ReadonlySet<string> = new Set([
  "chat.startStream",
  "chat.appendStream",
  "chat.stopStream",
]);
const CHUNK_TYPES: ReadonlySet<string> = new Set(["markdown_text", "task_update", "plan_update", "blocks"]);

export function actsAsOlderWorkspace(settings: SlackSettings, teamId: string): boolean {
  const older = settings.streaming.olderWorkspaces;
  return older.includes("*") || older.includes(teamId);
}

export function startStream({ team, params, now, state }: MethodContext): SlackAnswer {
  const channel = textParam(params, "channel") ?? "";
  const threadTs = textParam(params, "thread_ts");
  const { refusedChannels, maxChars } = state.settings().streaming;
  if (!CHANNEL_SHAPE.test(channel)) return refusal("channel_not_found");
  if (refusedChannels.some((entry) => entry === channel || (entry.length === 1 && channel.startsWith(entry)))) {
    return refusal("channel_type_not_supported");
  }
  if (!threadTs || threadTs === "0") return refusal("invalid_thread_ts");
  if (!channel.startsWith("D")) {
    if (!textParam(params, "recipient_user_id")) return refusal("missing_recipient_user_id");
    const recipientTeam = textParam(params, "recipient_team_id");
    if (!recipientTeam) return refusal("missing_recipient_team_id");
    // A workspace id (T…): the recipient's own team, never an org-scoped `E…:T…` (our guess at Slack's code).
    if (!/^T[A-Z0-9]+$/.test(recipientTeam)) return refusal("invalid_arguments");
  }
  const content = readContent(params, false);
  if (typeof content === "string") return refusal(content);
  if (content.text.length > maxChars) return refusal("msg_too_long");

  state.messages.findOrPlaceholder(team.id, channel, threadTs, now);
  const ts = state.messages.nextTs(now);
  state.messages.add({
    team: team.id,
    channel,
    ts,
    thread_ts: threadTs,
    ...botAuthor(team),
    text: content.text,
    markup: "markdown",
    streaming_state: "in_progress",
    stream: {
      ...(content.mode ? { mode: content.mode } : {}),
      chunks: content.chunks,
      startedAt: now,
      stoppedByUser: false,
    },
    reactions: [],
    revisions: [{ at: now, method: "chat.startStream", chars: content.text.length, text: content.text }],
  });
  state.assistant.replied(team.id, channel, threadTs, now);
  return { ok: true, channel, ts };
}

export function appendStream(ctx: MethodContext): SlackAnswer {
  const stream = openStream(ctx);
  if (typeof stream === "string") return refusal(stream);
  if (stream.stream!.stoppedByUser) return refusal("stopped_by_user");
  const content = readContent(ctx.params, true);
  if (typeof content === "string") return refusal(content);
  const added = addContent(ctx, stream, content);
  if (added) return refusal(added);
  if (content.text) ctx.state.messages.changed(stream, "chat.appendStream", ctx.now);
  return { ok: true, channel: stream.channel, ts: stream.ts };
}

export function stopStream(ctx: MethodContext): SlackAnswer {
  const stream = openStream(ctx);
  if (typeof stream === "string") return refusal(stream);
  const content = readContent(ctx.params, false);
  if (typeof content === "string") return refusal(content);
  const metadata = readMetadata(ctx.params.metadata);
  if (typeof metadata === "string") return refusal(metadata);
  const added = addContent(ctx, stream, content);
  if (added) return refusal(added);
  stream.streaming_state = "completed";
  ctx.state.messages.changed(stream, "chat.stopStream", ctx.now);
  if (metadata) stream.metadata = metadata;
  return {
    ok: true,
    channel: stream.channel,
    ts: stream.ts,
    message: wireMessage(stream, [], { includeMetadata: true }),
  };
}

/** A stream left open past its lifetime is ended by Slack, unfinished: `errored` (closed, not open). */
export function endExpiredStream(message: SlackMessage, now: number, settings: SlackSettings): void {
  if (message.streaming_state === "in_progress" && now - message.stream!.startedAt > settings.streaming.lifetimeMs)
    message.streaming_state = "errored";
}

/** The streaming message named by `channel` + `ts`, or the error that says why it cannot take more. */
function openStream({ team, params, now, state }: MethodContext): SlackMessage | string {
  const channel = textParam(params, "channel") ?? "";
  if (!CHANNEL_SHAPE.test(channel)) return "channel_not_found";
  const message = state.messages.find(team.id, channel, textParam(params, "ts") ?? "");
  if (!message) return "message_not_found";
  if (message.user !== team.botUserId) return "message_not_owned_by_app";
  endExpiredStream(message, now, state.settings());
  return message.streaming_state === "in_progress" ? message : "message_not_in_streaming_state";
}

interface StreamContent {
  mode?: "markdown_text" | "chunks";
  text: string;
  chunks: unknown[];
}

/** `markdown_text` or `chunks` (never both); the visible text is the markdown they carry. */
function readContent(params: Record<string, unknown>, required: boolean): StreamContent | string {
  const markdown = textParam(params, "markdown_text");
  const chunks = params.chunks;
  if (markdown !== undefined && chunks !== undefined) return "cannot_provide_both_markdown_text_and_chunks";
  if (markdown !== undefined) return { mode: "markdown_text", text: markdown, chunks: [] };
  if (chunks === undefined) return required ? "markdown_text_or_chunks_required" : { text: "", chunks: [] };
  if (!Array.isArray(chunks) || !chunks.every(validChunk)) return "invalid_chunks";
  const text = chunks
    .map((c) => ((c as { type: string }).type === "markdown_text" ? (c as { text: string }).text : ""))
    .join("");
  return { mode: "chunks", text, chunks };
}

function validChunk(chunk: unknown): boolean {
  if (typeof chunk !== "object" || chunk === null) return false;
  const { type, text } = chunk as { type?: unknown; text?: unknown };
  return typeof type === "string" && CHUNK_TYPES.has(type) && (type !== "markdown_text" || typeof text === "string");
}

/** Adds content to the stream; returns the error when it does not fit the stream's mode or size. */
function addContent({ state }: MethodContext, message: SlackMessage, content: StreamContent): string | undefined {
  const stream = message.stream!;
  if (content.mode && stream.mode && content.mode !== stream.mode) return "streaming_mode_mismatch";
  if (message.text.length + content.text.length > state.settings().streaming.maxChars) return "msg_too_long";
  if (content.mode) stream.mode = content.mode;
  stream.chunks.push(...content.chunks);
  message.text += content.text;
  return undefined;
}
