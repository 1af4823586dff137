/**
 * @module
 * Google Chat as a platform adapter: an HTTP endpoint app, its events (the Chat API's interaction events, or a
 * Workspace add-on's event objects: both are read) verified by their bearer token, spaces with threads (each
 * thread a conversation), group chats and DMs. Answers go out as the app, with the service account's token
 * (`spaces.messages.create` in the question's thread, in parts), shown as they are written by editing the posted
 * message. No working sign: Chat has no typing indicator, an app can react to a message only as a person
 * (reactions take user authentication), and a "…" placeholder would be one more message notifying everyone in the
 * thread, to be deleted again when the bot decides to stay quiet; the first words, a second after the model's
 * first, say the bot is answering. History: the space's messages where an administrator let the app read them,
 * else what was kept (./history.ts). A confirm tool's question carries Approve and Cancel buttons on a card
 * (./controls.ts).
 */
import type { PlatformAdapter, NoExtra } from "../adapter.ts";
import { jsonBody } from "../json-body.ts";
import { readGoogleChatHistory } from "./history.ts";
import { googleChatFiles } from "./files.ts";
import { parseGoogleChatEvent } from "./parse.ts";
import { APP_TENANT } from "./place.ts";
import { sendGoogleChatReply } from "./send.ts";
import { googleChatSettings, type GoogleChatSettings } from "./settings.ts";
import { googleChatStreaming } from "./stream.ts";
import { GOOGLE_CHAT_MAX_MESSAGE_CHARS, googleChatFormat } from "./format.ts";
import { googleChatControls, OUTCOME_ROOM_CHARS } from "./controls.ts";
import { googleChatTargetSchema, type GoogleChatTarget } from "./target.ts";
import { verifyGoogleChatRequest } from "./verify.ts";

/** Its `platform` kept literal: the adapter list (../index.ts) is keyed by it. */
export const googleChat = {
  platform: "google-chat" as const,
  settings: googleChatSettings,
  replyTargetSchema: googleChatTargetSchema,

  verify: verifyGoogleChatRequest,

  parse(ctx, request) {
    const body = jsonBody(request.rawBody);
    if (!body.ok) return { kind: "invalid", issues: body.issues };
    return parseGoogleChatEvent(body.value, ctx.settings.BOT_NAME, ctx.now());
  },

  // The Chat API lists a space's messages only with an administrator's approval: what the app hears is kept too.
  ingestOptions: () => ({ keepHistory: true }),

  send: sendGoogleChatReply,

  // Every event says whether its space is a DM; a job asks only for a message that did not.
  placeVisibility: async () => "private",

  // A space is a tenant of its own under the app (./place.ts): every space's answers spend the app's daily budget.
  budgetTenant: (place) => ({ platform: place.platform, tenant: APP_TENANT }),

  readHistory: readGoogleChatHistory,
  streaming: googleChatStreaming,
  files: googleChatFiles,
  format: googleChatFormat,
  // Only by its buttons: an app with app authentication neither reads reactions nor hears of them. The question is
  // one message, with room for the outcome that replaces them; what follows is a new message in the same thread.
  approvals: {
    way: "press",
    showsWhole: (question: string) => question.length <= GOOGLE_CHAT_MAX_MESSAGE_CHARS - OUTCOME_ROOM_CHARS,
    followUp: (target: GoogleChatTarget) => target,
    controls: googleChatControls,
  },
} satisfies PlatformAdapter<GoogleChatTarget, NoExtra, GoogleChatSettings>;
