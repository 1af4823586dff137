/**
 * @module
 * Posts the bot's answer with `spaces.messages.create` (app authentication), in the thread of the message it
 * answers (`thread.name` with `messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD`: a thread deleted since
 * gets the answer at the top rather than losing it), split into messages of at most 4,000 characters: Chat takes
 * 32,000 bytes a message ("The maximum message size, including the message contents, is 32,000 bytes"), which
 * 4,000 UTF-16 units never pass (three bytes each at most), and a screenful reads better than a wall.
 *
 * Each part carries a `requestId` made from the answer and the part's index: "Specifying a request ID makes the
 * request idempotent ... Subsequent requests with the same request ID return the existing message" (the Chat API's
 * CreateMessageRequest). So an attempt whose call never came back posts the part again and gets the message the
 * first call made, never a second one; Google names no window for it (docs/platforms/google-chat.md). A stream's
 * opening is the answer's first message and takes part 0's request id (./stream.ts): an opening that landed unheard,
 * then an answer (or the apology) posted whole, gets that message back holding the stream's first words, and puts
 * the part's text in it rather than leaving them beside the answer.
 */
import { bytesToHex } from "../../crypto.ts";
import type { PartProgress } from "../../message.ts";
import { splitText } from "../../text/split.ts";
import * as z from "../../zod.ts";
import { postParts } from "../parts.ts";
import { callChat, type ChatContext, withBackoff } from "./api.ts";
import { messageIdOf } from "./place.ts";
import { MESSAGE_NAME } from "./schema.ts";
import type { GoogleChatTarget } from "./target.ts";
import { GOOGLE_CHAT_MAX_MESSAGE_CHARS, googleChatText } from "./format.ts";

const createdSchema = z.looseObject({ name: z.string().check(z.regex(MESSAGE_NAME)), text: z.optional(z.string()) });

/** The request id of an answer's first message, a stream's opening or part 0. */
export const FIRST_MESSAGE = "0";

/**
 * The `requestId` of one post of an answer: the same on every attempt, a UUID in form (Google recommends a UUID),
 * from the space, the answer and `what` (a part's index, or the stream's opening).
 */
export async function requestIdOf(target: GoogleChatTarget, answerId: string, what: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${target.space}|${answerId}|${what}`)),
  );
  const hex = bytesToHex(digest.slice(0, 16));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Creates one message of the answer in its thread; answers its resource name and text (an earlier request's message,
 * for a request id seen before). A short 429 is waited out.
 */
export async function createMessage(
  ctx: ChatContext,
  target: GoogleChatTarget,
  text: string,
  requestId: string,
): Promise<{ name: string; text?: string | undefined }> {
  const created = await withBackoff(() =>
    callChat(ctx, "spaces.messages.create", {
      method: "POST",
      path: `${target.space}/messages`,
      query: {
        requestId,
        ...(target.thread ? { messageReplyOption: "REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD" } : {}),
      },
      body: { text: googleChatText(text), ...(target.thread ? { thread: { name: target.thread } } : {}) },
    }),
  );
  return createdSchema.parse(created);
}

/** Sets a message's text (Chat's own format): `spaces.messages.patch` with `updateMask=text`. */
export function setMessageText(ctx: ChatContext, target: GoogleChatTarget, messageId: string, chatText: string) {
  return patchMessage(ctx, target, messageId, { text: chatText });
}

/** Sets the fields of `body` on one of the app's messages (`updateMask` naming them): its text, its cards. */
export function patchMessage(
  ctx: ChatContext,
  target: GoogleChatTarget,
  messageId: string,
  body: { text?: string; cardsV2?: unknown[] },
) {
  return callChat(ctx, "spaces.messages.patch", {
    method: "PATCH",
    path: `${target.space}/messages/${messageId}`,
    query: { updateMask: Object.keys(body).join(",") },
    body,
  });
}

/** Posts `text` in order as one or more messages; returns the ids (in their space) of the messages this call posted. */
export function sendGoogleChatReply(
  ctx: ChatContext,
  target: GoogleChatTarget,
  text: string,
  progress: PartProgress,
): Promise<string[]> {
  return postParts(splitText(text, GOOGLE_CHAT_MAX_MESSAGE_CHARS), progress, {
    post: async (part, index) => {
      const created = await createMessage(ctx, target, part, await requestIdOf(target, progress.answerId, `${index}`));
      const id = messageIdOf(created.name);
      const chatText = googleChatText(part);
      // The first message may be a stream's opening made by an earlier attempt (heard of or not): it takes this text.
      if (index === 0 && created.text !== undefined && created.text !== chatText)
        await withBackoff(() => setMessageText(ctx, target, id, chatText));
      return id;
    },
  });
}
