/**
 * @module
 * Teams' own streaming of an answer, which it allows in 1:1 chats only ("Stream bot messages",
 * learn.microsoft.com/microsoftteams/platform/bots/streaming-ux; the same protocol in microsoft/teams.ts
 * packages/apps/src/http/http-stream.ts and microsoft/Agents-for-js StreamingResponse): `typing` activities carrying a
 * `streaminfo` entity, the first with `streamSequence` 1 and no `streamId` (answered 201 with the stream's id, which
 * becomes the message's), each later one naming that id with a greater sequence and the whole text so far; then one
 * `message` activity with `streamType: "final"`, the same `streamId` and no sequence, after which it is the bot's
 * message like any other (edited with `PUT`). Each next update goes only after the previous one was answered, and at
 * least a second later (the docs' "one request per second"; the Agents SDK's Teams interval is 1,000 ms): Teams
 * throttles faster streams (429). A 403 `ContentStreamNotAllowed` on an update means the stream ended on Teams' side:
 * the person pressed Stop, or the two minutes a stream may last ran out; the message keeps what it showed, and the
 * answer's text reaches it by an edit.
 */
import { errorMessage } from "../../log.ts";
import type { StreamState } from "../../message.ts";
import { closeMarkdown } from "../../text/close-markdown.ts";
import { renderSnapshot } from "../answer-format.ts";
import type { AnswerStream } from "../answer-stream.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { callConnector, type OutgoingActivity, type TeamsContext, teamsRefusal } from "./api.ts";
import { teamsFormat, teamsMarkdown } from "./format.ts";
import { editMessage } from "./send.ts";
import {
  endedOnTeams,
  finalActivity,
  keepStatusLine,
  STREAM_ENDED,
  type Sent,
  type StreamStart,
  takeStatusLine,
} from "./status-line.ts";
import type { TeamsTarget } from "./target.ts";

/** The least time between two updates of one stream, from the answer to the earlier one. */
export const STREAM_UPDATE_INTERVAL_MS = 1_000;

const update = (text: string, target: TeamsTarget, sequence: number, streamId?: string): OutgoingActivity => ({
  type: "typing",
  text: renderSnapshot(teamsFormat, text, target),
  textFormat: "markdown",
  entities: [
    { type: "streaminfo", streamType: "streaming", streamSequence: sequence, ...(streamId ? { streamId } : {}) },
  ],
});

/**
 * The stream showing `text`: the chat's status line's (./status-line.ts) when the working sign began one, else a new
 * one; null when Teams will not stream for this bot or chat (400 or 403: the answer is then shown another way).
 */
export async function openNativeStream(
  ctx: TeamsContext,
  target: TeamsTarget,
  text: string,
): Promise<AnswerStream | null> {
  const line = await takeStatusLine(ctx, target);
  if (line) {
    try {
      const continued = await continueStream(ctx, target, text, line);
      if (continued) return continued;
    } catch (err) {
      if (!refusedStream(ctx, err)) throw err;
      // Its words go out as a message, which ends the status line's stream (./send.ts).
      keepStatusLine(target, line);
      return null;
    }
  }
  let id: string | undefined;
  try {
    id = await waitingOutRateLimits(() => callConnector(ctx, "start stream", target, update(text, target, 1)));
  } catch (err) {
    if (!refusedStream(ctx, err)) throw err;
    return null;
  }
  if (!id) throw new Error("the Bot Connector started a stream without naming it");
  return nativeStream(ctx, target, { id, mode: "native", shown: text, open: true }, { sequence: 1, at: ctx.now() });
}

/** Teams will not stream for this bot or chat (400, 403): logged, for the answer to be shown another way. */
function refusedStream(ctx: TeamsContext, err: unknown): boolean {
  const refused = teamsRefusal(err);
  if (refused?.status !== 400 && refused?.status !== 403) return false;
  ctx.log.info("teams_stream_refused", { status: refused.status, code: refused.reason });
  return true;
}

/** The status line's stream, its text now the answer's first words; null when Teams ended it meanwhile. */
async function continueStream(ctx: TeamsContext, target: TeamsTarget, text: string, line: StreamStart) {
  const wait = line.sent.at + STREAM_UPDATE_INTERVAL_MS - ctx.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const sequence = line.sent.sequence + 1;
  try {
    await waitingOutRateLimits(() =>
      callConnector(ctx, "update stream", target, update(text, target, sequence, line.id)),
    );
  } catch (err) {
    if (endedOnTeams(err)) return null;
    throw err;
  }
  const state: StreamState = { id: line.id, mode: "native", shown: text, open: true };
  return nativeStream(ctx, target, state, { sequence, at: ctx.now() });
}

/**
 * The stream `state` names. Resumed by a later attempt (no `sent`), its last sequence is unknown: it is only finished
 * or closed, never shown further.
 */
export function nativeStream(ctx: TeamsContext, target: TeamsTarget, state: StreamState, sent?: Sent): AnswerStream {
  let stopped = false;
  const edit = (text: string) => waitingOutRateLimits(() => editMessage(ctx, target, state.id, teamsMarkdown(text)));
  const end = async (text: string) => {
    await waitingOutRateLimits(() =>
      callConnector(ctx, "end stream", target, finalActivity(teamsMarkdown(text), state.id)),
    );
    state.open = false;
  };
  return {
    state,
    get personStopped() {
      return stopped;
    },
    async show(text) {
      if (!sent || !state.open || ctx.now() - sent.at < STREAM_UPDATE_INTERVAL_MS) return;
      // Taken before the call: an update that failed may still have landed, and a sequence is never used twice.
      const sequence = sent.sequence + 1;
      try {
        await callConnector(ctx, "update stream", target, update(text, target, sequence, state.id));
        state.shown = text;
      } catch (err) {
        if (endedOnTeams(err)) {
          stopped = true;
          state.open = false;
          ctx.log.info("teams_stream_ended", { code: STREAM_ENDED });
          return;
        }
        // Left out: the next update, or the final message, carries its text.
        ctx.log.warn("teams_stream_update_failed", { error: errorMessage(err) });
      } finally {
        sent = { sequence, at: ctx.now() };
      }
    },
    async finish(text) {
      if (state.open) {
        try {
          await end(text);
          state.shown = text;
          return;
        } catch (err) {
          if (!endedOnTeams(err)) throw err;
          state.open = false;
        }
        await edit(text);
      } else if (state.shown !== text || closeMarkdown(text) !== text) await edit(text);
      state.shown = text;
    },
    async close() {
      if (!state.open) return;
      try {
        await end(state.shown);
      } catch (err) {
        if (endedOnTeams(err)) state.open = false;
        else ctx.log.warn("teams_stream_end_failed", { error: errorMessage(err) });
      }
    },
  };
}
