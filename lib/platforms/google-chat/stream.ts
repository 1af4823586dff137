/**
 * @module
 * Google Chat answers shown as they are written: the first words posted in the question's thread, then the message
 * edited as the answer grows (`spaces.messages.patch`, `updateMask=text`; with app authentication an app "can only
 * update messages created by the calling Chat app"), its Markdown closed in each snapshot. Chat's own streaming
 * (`spaces.streamMessages`, announced on 4 November 2026) is a Developer Preview, not for production: not used.
 *
 * Edits are throttled: every write of a space (posts, edits, reactions, of every app in it) shares its quota of
 * 60 a minute ("Usage limits", per-space writes), so a growing answer is edited at most every two seconds and within
 * a share of that quota, leaving the rest to the answer's other parts and to the next answers. A progress edit that
 * fails is left out (the next, or the last, carries its text); the last one must land. Past 4,000 characters the
 * message stops growing and the rest follows as further messages once the answer is complete.
 */
import { errorMessage } from "../../log.ts";
import type { StreamState } from "../../message.ts";
import { closeMarkdown } from "../../text/close-markdown.ts";
import type { StreamingCapability } from "../adapter.ts";
import { renderSnapshot } from "../answer-format.ts";
import type { AnswerStream } from "../answer-stream.ts";
import { type ChatContext, withBackoff } from "./api.ts";
import { messageIdOf } from "./place.ts";
import { createMessage, FIRST_MESSAGE, requestIdOf, setMessageText } from "./send.ts";
import { GOOGLE_CHAT_MAX_MESSAGE_CHARS, googleChatFormat } from "./format.ts";
import type { GoogleChatSettings } from "./settings.ts";
import type { GoogleChatTarget } from "./target.ts";

const EDIT_INTERVAL_MS = 2_000;
/** A third of the space's 60 writes a minute. */
const PROGRESS_EDITS_PER_MINUTE = 20;

export const googleChatStreaming: StreamingCapability<GoogleChatTarget, GoogleChatSettings> = {
  maxChars: GOOGLE_CHAT_MAX_MESSAGE_CHARS,
  intervalMs: EDIT_INTERVAL_MS,

  async open(ctx, target, text, answer) {
    // The first message's request id: an attempt that never heard back from it posts again and gets that message.
    const requestId = await requestIdOf(target, answer.triggerId, FIRST_MESSAGE);
    const { name } = await createMessage(ctx, target, closeMarkdown(text), requestId);
    const id = messageIdOf(name);
    // The message found again holds the earlier attempt's first words, not these: they are put in.
    if (answer.unsure) await withBackoff(() => patchText(ctx, target, id, text));
    return editStream(ctx, target, { id, mode: "edit", shown: text, open: false });
  },

  resume: (ctx, target, state) => editStream(ctx, target, { ...state }),
};

/** Sets the message's text to a snapshot of the answer. */
function patchText(ctx: ChatContext, target: GoogleChatTarget, messageId: string, text: string) {
  return setMessageText(ctx, target, messageId, renderSnapshot(googleChatFormat, text, target));
}

function editStream(ctx: ChatContext, target: GoogleChatTarget, state: StreamState): AnswerStream {
  let editedAt = ctx.now();
  return {
    state,
    async show(text) {
      if (
        ctx.now() - editedAt < EDIT_INTERVAL_MS ||
        !(await ctx.callBudget("spaces.messages.patch progress", PROGRESS_EDITS_PER_MINUTE))
      )
        return;
      editedAt = ctx.now();
      try {
        await patchText(ctx, target, state.id, text);
        state.shown = text;
      } catch (err) {
        ctx.log.warn("google_chat_stream_edit_failed", { error: errorMessage(err) });
      }
    },
    async finish(text) {
      // Even the same words: the shown snapshot had its Markdown closed, the finished text may not need it.
      if (state.shown !== text || closeMarkdown(text) !== text)
        await withBackoff(() => patchText(ctx, target, state.id, text));
      state.shown = text;
    },
    close: async () => undefined,
  };
}
