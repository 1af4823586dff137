/**
 * @module
 * chat.postMessage (with `metadata`, kept and returned with `include_all_metadata`) and chat.update (4,000
 * characters, `streaming_state_conflict` while a stream is open), with Slack's errors. Either takes `text` (Slack's
 * mrkdwn) or `markdown_text` (standard Markdown, at most 12,000 characters, never beside `text` or `blocks`); the
 * message keeps which (`markup`), for the simulator to show it as Slack would. chat.update also takes `blocks`
 * (./blocks.ts, beside `text` as the notification's fallback), which the message keeps.
 */
import { botAuthor, CHANNEL_SHAPE, refusal, type MethodContext, type SlackAnswer } from "./context.ts";
import { wireMessage, type SlackMetadata } from "./messages.ts";
import { readBlocks } from "./blocks.ts";
import { textParam } from "./request.ts";

/** Slack truncates longer texts; the fake refuses them so that a sender that relies on truncation is caught. */
const POST_MAX_CHARS = 40_000;
/** chat.update's `text` limit (`msg_too_long`). */
const UPDATE_MAX_CHARS = 4_000;
const MARKDOWN_MAX_CHARS = 12_000;

export function postMessage({ team, params, now, state }: MethodContext): SlackAnswer {
  const channel = textParam(params, "channel") ?? "";
  const markdown = textParam(params, "markdown_text");
  const text = markdown ?? textParam(params, "text") ?? "";
  const threadTs = textParam(params, "thread_ts") || undefined;
  if (!CHANNEL_SHAPE.test(channel)) return refusal("channel_not_found");
  // "This argument should not be used in conjunction with blocks or text" (chat.postMessage); chat.update's code.
  if (markdown !== undefined && (params.text !== undefined || params.blocks !== undefined))
    return refusal("markdown_text_conflict");
  if (!text.trim()) return refusal("no_text");
  if (text.length > (markdown !== undefined ? MARKDOWN_MAX_CHARS : POST_MAX_CHARS)) return refusal("msg_too_long");
  const metadata = readMetadata(params.metadata);
  if (typeof metadata === "string") return refusal(metadata);

  if (threadTs) state.messages.findOrPlaceholder(team.id, channel, threadTs, now);
  const ts = state.messages.nextTs(now);
  const message = state.messages.add({
    team: team.id,
    channel,
    ts,
    ...(threadTs ? { thread_ts: threadTs } : {}),
    ...botAuthor(team),
    text,
    markup: markdown !== undefined ? "markdown" : "mrkdwn",
    ...(metadata ? { metadata } : {}),
    reactions: [],
    revisions: [{ at: now, method: "chat.postMessage", chars: text.length, text }],
  });
  state.assistant.replied(team.id, channel, threadTs ?? ts, now);
  state.recordPost({
    channel,
    text,
    markup: markdown !== undefined ? "markdown" : "mrkdwn",
    ...(threadTs ? { thread_ts: threadTs } : {}),
    ts,
    team: team.id,
    ...(metadata ? { metadata } : {}),
  });
  return { ok: true, channel, ts, message: wireMessage(message, [], { includeMetadata: true }) };
}

export function updateMessage({ team, params, now, state }: MethodContext): SlackAnswer {
  const channel = textParam(params, "channel") ?? "";
  const ts = textParam(params, "ts") ?? "";
  const text = textParam(params, "text");
  const markdown = textParam(params, "markdown_text");
  if (!CHANNEL_SHAPE.test(channel)) return refusal("channel_not_found");
  const message = state.messages.find(team.id, channel, ts);
  if (!message) return refusal("message_not_found");
  if (message.user !== team.botUserId) return refusal("cant_update_message");
  if (message.streaming_state === "in_progress") return refusal("streaming_state_conflict");
  if (markdown !== undefined && (text !== undefined || params.blocks !== undefined))
    return refusal("markdown_text_conflict");
  const newText = markdown ?? text;
  if (newText === undefined || (!newText.trim() && params.blocks === undefined)) return refusal("no_text");
  if (newText.length > (markdown !== undefined ? MARKDOWN_MAX_CHARS : UPDATE_MAX_CHARS)) return refusal("msg_too_long");
  const metadata = readMetadata(params.metadata);
  if (typeof metadata === "string") return refusal(metadata);
  const blocks = readBlocks(params.blocks);
  if (blocks === "invalid_blocks") return refusal(blocks);

  message.text = newText;
  // Slack keeps a message's blocks until an update gives others; an update with text alone drops them.
  if (blocks) message.blocks = blocks;
  else delete message.blocks;
  // A markdown block shows standard Markdown as markdown_text does (the text beside it is the notification's).
  const showsMarkdown = markdown !== undefined || (blocks?.some((b) => b.type === "markdown") ?? false);
  message.markup = showsMarkdown ? "markdown" : "mrkdwn";
  if (metadata) message.metadata = metadata;
  message.edited = { user: team.botUserId, ts: state.messages.nextTs(now) };
  state.messages.changed(message, "chat.update", now);
  return { ok: true, channel, ts, text: newText, message: wireMessage(message, [], { includeMetadata: true }) };
}

/** The message's metadata, undefined when absent, or Slack's error code when malformed. */
export function readMetadata(value: unknown): SlackMetadata | undefined | string {
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "invalid_metadata_format";
  const { event_type: eventType, event_payload: payload } = value as Record<string, unknown>;
  if (
    typeof eventType !== "string" ||
    !eventType ||
    typeof payload !== "object" ||
    payload === null ||
    Array.isArray(payload)
  ) {
    return "invalid_metadata_schema";
  }
  return { event_type: eventType, event_payload: payload as Record<string, unknown> };
}
