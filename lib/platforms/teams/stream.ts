/**
 * @module
 * Teams answers shown as they are written. In a 1:1 chat Teams' own stream (./native-stream.ts); in channels and
 * group chats, where Teams streams nothing, and in a 1:1 chat whose stream Teams refuses, the first words posted as a
 * reply, then the message replaced as the answer grows (`PUT …/activities/{id}`, "Update and delete messages sent
 * from your bot"), its Markdown closed in each snapshot.
 *
 * Edits are throttled within the Connector's limits per bot and conversation ("Optimize your bot with rate limiting":
 * 7 operations a second, 8 in two, 60 in thirty, 1,800 an hour): at most one edit every 1.5 s, and within a share of
 * the conversation's 1,800 an hour, leaving the rest to the other parts and the next answers. A progress edit that
 * fails is left out (the next, or the last, carries its text); the last one must land.
 */
import { errorMessage } from "../../log.ts";
import type { StreamState } from "../../message.ts";
import { closeMarkdown } from "../../text/close-markdown.ts";
import type { StreamingCapability } from "../adapter.ts";
import { renderSnapshot } from "../answer-format.ts";
import type { AnswerStream } from "../answer-stream.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import type { TeamsContext } from "./api.ts";
import { TEAMS_MAX_MESSAGE_CHARS, teamsFormat } from "./format.ts";
import { nativeStream, openNativeStream, STREAM_UPDATE_INTERVAL_MS } from "./native-stream.ts";
import { editMessage, postFirstMessage } from "./send.ts";
import type { TeamsSettings } from "./settings.ts";
import type { TeamsTarget } from "./target.ts";

const EDIT_INTERVAL_MS = 1_500;
/** A fifth of a conversation's 1,800 operations an hour, in a minute's terms. */
const PROGRESS_EDITS_PER_MINUTE = 6;

export const teamsStreaming: StreamingCapability<TeamsTarget, TeamsSettings> = {
  maxChars: TEAMS_MAX_MESSAGE_CHARS,
  // The native stream's; an edit stream keeps its own longer interval.
  intervalMs: STREAM_UPDATE_INTERVAL_MS,

  async open(ctx, target, text) {
    const native = target.personal ? await openNativeStream(ctx, target, text) : null;
    if (native) return native;
    const id = await postFirstMessage(ctx, target, renderSnapshot(teamsFormat, text, target));
    return editStream(ctx, target, { id, mode: "edit", shown: text, open: false });
  },

  resume: (ctx, target, state) =>
    state.mode === "native" ? nativeStream(ctx, target, { ...state }) : editStream(ctx, target, { ...state }),
};

function editStream(ctx: TeamsContext, target: TeamsTarget, state: StreamState): AnswerStream {
  let editedAt = ctx.now();
  const edit = (text: string) => editMessage(ctx, target, state.id, renderSnapshot(teamsFormat, text, target));
  return {
    state,
    unfindable: true,
    async show(text) {
      if (
        ctx.now() - editedAt < EDIT_INTERVAL_MS ||
        !(await ctx.callBudget("update activity progress", PROGRESS_EDITS_PER_MINUTE))
      )
        return;
      editedAt = ctx.now();
      try {
        await edit(text);
        state.shown = text;
      } catch (err) {
        ctx.log.warn("teams_stream_edit_failed", { error: errorMessage(err) });
      }
    },
    async finish(text) {
      // Even the same words: the shown snapshot had its Markdown closed, the finished text may not need it.
      if (state.shown !== text || closeMarkdown(text) !== text) await waitingOutRateLimits(() => edit(text));
      state.shown = text;
    },
    close: async () => undefined,
  };
}
