/**
 * @module
 * "Did an earlier attempt's opening of this answer's message land?" on Slack, asked once before opening again. A
 * posted first part carries the answer's metadata (./find-part.ts). A native stream cannot from its start
 * (`chat.startStream` takes no metadata; `chat.stopStream` does, and every stop here gives it), so one whose start
 * never came back is known otherwise: a bot message since the attempt began without metadata (every post and every
 * stop of this bot carries it, so only a stream never stopped lacks it), whose text is exactly one an attempt of
 * this answer opened with (the attempt never knew its ts, so nothing was appended; another app would have to have
 * said exactly those words). `streaming_state`, where the listing gives it, says whether Slack ended the stream
 * already. Another answer's stream matches only if it too was left at its opening words, those very words, within
 * the same seconds: jobs of one conversation run one at a time (lib/queue/publish.ts), so it would have to be one
 * that died just before this answer began.
 */

import type { StreamState } from "../../message.ts";
import type { UnsureOpen } from "../answer-stream.ts";
import { partAmong, type SlackPlace, slackMessagesSince } from "./find-part.ts";
import { slackMarkdown } from "./format.ts";

/** Slack's `streaming_state` of a stream that takes no more appends (the other value is `in_progress`). */
const ENDED_STATES: ReadonlySet<string> = new Set(["completed", "errored"]);

/** The earlier attempt's message: a posted first part (edited from here), or a stream to carry on or finish. */
export type EarlierOpen = { mode: "edit"; ts: string } | { mode: "native"; state: StreamState };

export async function findEarlierOpen(
  place: SlackPlace,
  answerId: string,
  unsure: UnsureOpen,
): Promise<EarlierOpen | null> {
  const listed = await slackMessagesSince(place, unsure.since);
  if (!listed) return null;
  const part = partAmong(listed, answerId, 0);
  if (part) return { mode: "edit", ts: part.ts };
  for (const message of listed) {
    if (message.bot_id === undefined || message.metadata !== undefined) continue;
    const opening = unsure.openings.find((text) => slackMarkdown(text) === message.text);
    // Slack ends a stream itself after some minutes (`errored`), or it was stopped (`completed`): finished with an
    // edit.
    if (opening !== undefined)
      return {
        mode: "native",
        state: {
          id: message.ts,
          mode: "native",
          shown: opening,
          open: !ENDED_STATES.has(message.streaming_state ?? ""),
        },
      };
  }
  return null;
}
