/**
 * @module
 * POST /google-chat/events: `/parley` answered at once, privately to its user, from the place's settings
 * (./place-command.ts); everything else goes the webhook flow (./webhook.ts: the bearer token checked before anything
 * is read → parse → ingest, or a space's cleanup once the app is removed from it) → 200 with an empty JSON object,
 * which asks Chat to post nothing: the answer goes out later, from the job, through the Chat API. Chat waits up to
 * 30 seconds for this answer.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { replyContext } from "../lib/platforms/context.ts";
import { jsonBody } from "../lib/platforms/json-body.ts";
import { readChatEvent } from "../lib/platforms/google-chat/event.ts";
import { googleChat as adapter } from "../lib/platforms/google-chat/index.ts";
import { googleChatMayManage, parleyAnswer, readParleyCommand } from "../lib/platforms/google-chat/parley.ts";
import { isDirectMessage } from "../lib/platforms/google-chat/place.ts";
import { runtimeFor } from "../lib/runtime.ts";
import type { AppEnv } from "./app-env.ts";
import { answerPlaceCommand } from "./place-command.ts";
import { platformOn, platformWebhook, signedBy } from "./webhook.ts";

export const googleChat = new Hono<AppEnv>();

/** `/parley`; any other event (or a body that does not parse) goes on to the webhook flow. */
const placeCommands: MiddlewareHandler<AppEnv> = async (c, next) => {
  const body = jsonBody(c.var.webhook.rawBody);
  const command = body.ok ? readParleyCommand(readChatEvent(body.value)) : null;
  if (!command) return next();
  const rt = runtimeFor(c.env);
  const ctx = replyContext(rt, adapter, command.place.tenant);
  // A digest is posted at the top of the space, a thread of its own.
  const origin = async () => ({
    replyTarget: { platform: "google-chat" as const, space: command.space.name, dm: isDirectMessage(command.space) },
    botUserId: "",
    userId: command.user,
  });
  const mayChange = () => googleChatMayManage(ctx, command, rt.log);
  return parleyAnswer(command, await answerPlaceCommand(rt, command.place, command.words, mayChange, origin));
};

googleChat.post(
  "/events",
  platformOn(adapter),
  signedBy(adapter),
  placeCommands,
  platformWebhook(adapter, {
    message: (c) => c.json({}),
    nothing: (c) => c.json({}),
  }),
);
