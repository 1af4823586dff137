/**
 * @module
 * POST /discord/interactions: `/parley` (but its `forget`) answered at once, to its user alone, from the place's
 * settings (./place-command.ts); everything else goes the webhook flow (./webhook.ts), answered `{"type":5}` (the
 * user sees "thinking…" until the job edits that message with the answer), a press of an approval's button
 * (type 3) answered by lib/platforms/discord/controls.ts (`{"type":6}`, or a note to the presser alone), or a short
 * note for an interaction Parley does not handle.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { discord as adapter } from "../lib/platforms/discord/index.ts";
import { ephemeralAnswer, PARLEY_FORGET, parleyPlace, parleyWords } from "../lib/platforms/discord/parley.ts";
import { DEFERRED_ANSWER, UNSUPPORTED_ANSWER } from "../lib/platforms/discord/responses.ts";
import { runtimeFor } from "../lib/runtime.ts";
import type { AppEnv } from "./app-env.ts";
import { answerPlaceCommand } from "./place-command.ts";
import { platformOn, platformWebhook, signedBy } from "./webhook.ts";

export const discord = new Hono<AppEnv>();

/**
 * `/parley`'s settings subcommands; any other interaction (or a body that does not parse) goes on to the webhook flow.
 */
const placeCommands: MiddlewareHandler<AppEnv> = async (c, next) => {
  let body: unknown;
  try {
    body = JSON.parse(c.var.webhook.rawBody);
  } catch {
    return next();
  }
  const words = parleyWords((body as { data?: unknown } | null)?.data);
  if (words === null || words === PARLEY_FORGET) return next();
  const rt = runtimeFor(c.env);
  const place = parleyPlace(body);
  if (!place) return c.json(ephemeralAnswer("These settings belong to a server's channels: use /parley in one."));
  const key = { platform: adapter.platform, tenant: place.guildId, channel: place.channelId };
  // A digest goes to the channel as a message of its own (an interaction's token lives 15 minutes).
  const origin = async () => ({
    replyTarget: { platform: "discord" as const, kind: "channel" as const, channelId: place.channelId },
    botUserId: place.applicationId,
    userId: place.userId,
  });
  return c.json(ephemeralAnswer(await answerPlaceCommand(rt, key, words, async () => place.mayManage, origin)));
};

discord.post(
  "/interactions",
  platformOn(adapter),
  signedBy(adapter),
  placeCommands,
  platformWebhook(adapter, {
    message: (c) => c.json(DEFERRED_ANSWER),
    nothing: (c) => c.json(UNSUPPORTED_ANSWER),
  }),
);
