/**
 * @module
 * Teams' streaming of bot messages, held as strictly as Teams holds a bot to it ("Stream bot messages",
 * learn.microsoft.com/microsoftteams/platform/bots/streaming-ux: its requirements for `streamSequence` and its
 * response codes; microsoft/teams.ts packages/apps/src/http/http-stream.ts for how the SDK reads them):
 * - only in 1:1 chats: elsewhere 400 `BadArgument` "streaming api is not enabled" (the message Microsoft's Agents
 *   SDK looks for to stop streaming);
 * - a stream starts with a `typing` activity whose `streaminfo` has `streamSequence` 1, no `streamId`, and text
 *   (400 otherwise), answered 201 with the stream's id, which is the id of the message it becomes;
 * - each later `typing` update names an open stream of the conversation (400 otherwise) with a greater sequence: one
 *   that is not greater is dropped, answered 202 `ContentStreamSequenceOrderPreConditionFailed` as Teams answers it;
 *   one less than a second after the stream's previous update is 429 "API calls quota exceeded";
 * - the final `message` (`streamType` final, the stream's id, no sequence: 400 with one) ends it; after it, after the
 *   person's Stop (`POST /__stop-stream`) or two minutes after the start, an update is 403 `ContentStreamNotAllowed`;
 * - an informative update sets the status line under the chat, a streaming one the text the message shows.
 * Each refusal is recorded with its code, so a test sees one that the bot answered with nothing visible (a 202).
 */
import type { FakeActivity, FakeConversation, FakeStream, World } from "./world.ts";

/** Teams' least time between two updates of a stream (the Agents SDK's interval for Teams). */
const UPDATE_INTERVAL_MS = 1_000;
/** "Content stream finished due to exceeded streaming time": two minutes. */
const STREAM_LIFETIME_MS = 120_000;
const STREAM_TYPES = ["informative", "streaming", "final"] as const;

export interface StreamInfo {
  /** informative, streaming or final (Teams' default: streaming); anything else is refused. */
  streamType: string;
  streamId?: string;
  streamSequence?: number;
}

/** The Connector's answer (./connector.ts reads it so). */
interface ConnectorAnswer {
  status: number;
  json: unknown;
}

/** What the fake's record keeps of a streaming activity, beside the Connector's other calls. */
interface StreamCall {
  route: "send activity" | "stream update";
  conversation: string;
  activityId?: string;
  text: string;
  streamType: string;
  streamSequence?: number;
  refused?: string;
}

interface StreamDeps {
  world: World;
  bot: () => { id: string; name: string };
  record(call: StreamCall): void;
}

/** The activity's `streaminfo` entity; null when it has none (a plain message or typing sign). */
export function streamInfoOf(activity: Record<string, unknown>): StreamInfo | null {
  const entities = Array.isArray(activity.entities) ? (activity.entities as Record<string, unknown>[]) : [];
  const entity = entities.find((e) => typeof e === "object" && e !== null && e.type === "streaminfo");
  if (!entity) return null;
  return {
    streamType: typeof entity.streamType === "string" ? entity.streamType : "streaming",
    ...(typeof entity.streamId === "string" ? { streamId: entity.streamId } : {}),
    ...(entity.streamSequence !== undefined ? { streamSequence: Number(entity.streamSequence) } : {}),
  };
}

const error = (status: number, code: string, message: string): ConnectorAnswer => ({
  status,
  json: { error: { code, message } },
});

/** Takes one streaming activity (typing update or final message) in `conversation`. */
export function streamActivity(
  deps: StreamDeps,
  conversation: FakeConversation,
  activity: Record<string, unknown>,
  info: StreamInfo,
): ConnectorAnswer {
  const text = typeof activity.text === "string" ? activity.text : "";
  const textFormat = typeof activity.textFormat === "string" ? activity.textFormat : undefined;
  const answer = judge(deps, conversation, activity, info, { text, ...(textFormat ? { textFormat } : {}) });
  const code = (answer.json as { error?: { code?: string } }).error?.code;
  deps.record({
    route: info.streamType === "final" ? "send activity" : "stream update",
    conversation: conversation.id,
    ...(info.streamId ? { activityId: info.streamId } : {}),
    text,
    streamType: info.streamType,
    ...(info.streamSequence !== undefined ? { streamSequence: info.streamSequence } : {}),
    ...(code ? { refused: code } : {}),
  });
  return answer;
}

function judge(
  deps: StreamDeps,
  conversation: FakeConversation,
  activity: Record<string, unknown>,
  info: StreamInfo,
  shown: { text: string; textFormat?: string },
): ConnectorAnswer {
  const { text } = shown;
  const now = Date.now();
  if (conversation.type !== "personal") return error(400, "BadArgument", "streaming api is not enabled");
  if (!(STREAM_TYPES as readonly string[]).includes(info.streamType))
    return error(400, "BadArgument", "Unknown streamType");
  const final = info.streamType === "final";
  if (final !== (activity.type === "message")) return error(400, "BadArgument", "Streaming activity of the wrong type");
  if (!text.trim()) return error(400, "BadArgument", "Streaming activities should include text");
  if (!info.streamId) {
    if (final || info.streamSequence !== 1)
      return error(400, "BadArgument", "Start streaming activities should have streamSequence 1");
    const started = deps.world.add({
      id: deps.world.nextId(),
      conversation: conversation.id,
      from: deps.bot(),
      text: info.streamType === "streaming" ? text : "",
      byBot: true,
      revisions: [{ at: now, method: "stream", ...shown, streamType: info.streamType }],
      stream: { state: "streaming", sequence: 1, startedAt: now, updatedAt: now },
    });
    if (info.streamType === "informative") started.stream!.status = text;
    return { status: 201, json: { id: started.id } };
  }
  const message = deps.world.activity(conversation.id, info.streamId);
  const stream = message?.stream;
  if (!message || !stream) return error(400, "BadArgument", "Unknown streamId");
  if (stream.state === "streaming" && now - stream.startedAt > STREAM_LIFETIME_MS) stream.state = "stopped";
  if (stream.state === "final")
    return error(
      403,
      "ContentStreamNotAllowed",
      "Content stream is not allowed on an already completed streamed message",
    );
  if (stream.state === "stopped") return error(403, "ContentStreamNotAllowed", "Content stream is not allowed");
  if (final) {
    if (info.streamSequence !== undefined)
      return error(400, "BadArgument", "streamSequence must not be set on the final streaming activity");
    return settle(message, stream, { at: now, method: "final", ...shown, streamType: "final" }, "final");
  }
  if (!Number.isInteger(info.streamSequence) || (info.streamSequence ?? 0) <= stream.sequence)
    return error(
      202,
      "ContentStreamSequenceOrderPreConditionFailed",
      "PreCondition failed exception when processing streaming activity.",
    );
  if (now - stream.updatedAt < UPDATE_INTERVAL_MS) return error(429, "TooManyRequests", "API calls quota exceeded");
  stream.sequence = info.streamSequence!;
  if (info.streamType === "informative") stream.status = text;
  return settle(message, stream, { at: now, method: "stream", ...shown, streamType: info.streamType }, "streaming");
}

function settle(
  message: FakeActivity,
  stream: FakeStream,
  revision: FakeActivity["revisions"][number],
  state: FakeStream["state"],
): ConnectorAnswer {
  stream.updatedAt = revision.at;
  stream.state = state;
  if (revision.streamType !== "informative") message.text = revision.text;
  message.revisions.push(revision);
  return { status: 202, json: {} };
}

/** The person presses Stop on the conversation's open stream; false when none is open. */
export function stopStream(world: World, conversation: string): boolean {
  const open = [...world.activities.values()].find(
    (a) => a.conversation === conversation && a.stream?.state === "streaming",
  );
  if (!open?.stream) return false;
  open.stream.state = "stopped";
  return true;
}
