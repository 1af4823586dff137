/**
 * @module
 * The working sign of a 1:1 answer where answers stream (STREAMING on): Teams' stream begun with an informative
 * update ("Stream bot messages": a status line under the chat "while a response is being generated"), which the
 * answer then continues with its words (./native-stream.ts: the next sequence of that stream, at Teams' pace) or, when
 * it is posted whole, ends with its first message (./send.ts), so the person sees at once that the bot is on it, and
 * then the answer in that same stream. Teams allows one stream at a time in a chat, and a conversation's jobs run one
 * at a time: one status line per chat, kept in the isolate of the attempt that started it. A later attempt, in
 * another, starts a stream of its own; Teams ends a forsaken one two minutes after it began.
 */
import { errorMessage } from "../../log.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { callConnector, type OutgoingActivity, type TeamsContext, teamsRefusal } from "./api.ts";
import type { TeamsTarget } from "./target.ts";

const STATUS_LINE = "Working on an answer…";
/** How long Teams lets a stream last ("Content stream finished due to exceeded streaming time"). */
const STREAM_LIFETIME_MS = 120_000;
/** Teams ends a stream that it refuses to go on with (Stop pressed, two minutes past) with this code. */
export const STREAM_ENDED = "ContentStreamNotAllowed";

/** The last update this attempt sent to a stream: its sequence, and when Teams answered it. */
export interface Sent {
  sequence: number;
  at: number;
}

/** A stream a status line began: its id (the message's to be), its last update, and when it began. */
export interface StreamStart {
  id: string;
  sent: Sent;
  since: number;
}

const lines = new Map<string, Promise<StreamStart | null>>();

export const endedOnTeams = (err: unknown) => teamsRefusal(err)?.reason === STREAM_ENDED;

/** Begins the chat's stream with the status line; resolves once it shows (or failed, which is logged). */
export function showStatusLine(ctx: TeamsContext, target: TeamsTarget): Promise<void> {
  const since = ctx.now();
  const started = callConnector(ctx, "start stream", target, {
    type: "typing",
    text: STATUS_LINE,
    entities: [{ type: "streaminfo", streamType: "informative", streamSequence: 1 }],
  }).then(
    (id) => (id ? { id, sent: { sequence: 1, at: ctx.now() }, since } : null),
    (err: unknown) => {
      ctx.log.warn("working_sign_failed", { platform: "teams", what: "status_line", error: errorMessage(err) });
      return null;
    },
  );
  lines.set(target.conversationId, started);
  return started.then(() => undefined);
}

/** The stream a status line began in the target's chat, now the caller's; null when none is (still) open. */
export async function takeStatusLine(ctx: TeamsContext, target: TeamsTarget): Promise<StreamStart | null> {
  const started = lines.get(target.conversationId);
  if (!started) return null;
  lines.delete(target.conversationId);
  const line = await started;
  return line && ctx.now() - line.since < STREAM_LIFETIME_MS ? line : null;
}

/** Gives back a status line taken and not continued: the answer's first message is then to end it. */
export function keepStatusLine(target: TeamsTarget, line: StreamStart): void {
  lines.set(target.conversationId, Promise.resolve(line));
}

/** The message that ends stream `streamId` showing `markdown` (already in Teams' Markdown). */
export const finalActivity = (markdown: string, streamId: string): OutgoingActivity => ({
  type: "message",
  text: markdown,
  textFormat: "markdown",
  entities: [{ type: "streaminfo", streamType: "final", streamId }],
});

/**
 * Posts the answer's first part as the message that ends the chat's status line, when one is open; its id (the
 * stream's), or null when there is none, or Teams ended it already (the part is then posted as a message of its own).
 */
export async function endStatusLine(ctx: TeamsContext, target: TeamsTarget, markdown: string): Promise<string | null> {
  const line = target.personal ? await takeStatusLine(ctx, target) : null;
  if (!line) return null;
  try {
    await waitingOutRateLimits(() => callConnector(ctx, "end stream", target, finalActivity(markdown, line.id)));
    return line.id;
  } catch (err) {
    if (endedOnTeams(err)) return null;
    throw err;
  }
}
