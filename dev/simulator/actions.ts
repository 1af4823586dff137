/**
 * @module
 * What a person does to one of the bot's messages on the simulator page, sent as the platform sends it: a Slack
 * reaction (`POST /api/react`: put on the message in the fake first, as Slack has it before it tells the app, then
 * `reaction_added`), and a press of a button the Worker put on the message (`POST /api/press`): on Slack
 * `block_actions` to `/slack/interactions` (the page draws the buttons from the message's Block Kit,
 * ./slack-blocks.ts); on Telegram through the fake, which sends the `callback_query` and keeps the bot's
 * answerCallbackQuery, whose text the page shows the presser (./telegram-posts.ts draws the inline keyboard); on
 * Discord a signed MESSAGE_COMPONENT interaction to `/discord/interactions`, whose private answer (type 4) the page
 * shows the presser (./discord-controls.ts draws the buttons from the message's components); on
 * Google Chat through the fake, which sends the click and does what Chat does with the answer (a private note is a
 * message only the clicker sees: ./google-chat-posts.ts draws the card's buttons).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { readBody, sendJson } from "../fakes/http.ts";
import { personByHandle, SLACK_CHANNEL, type SlackWorkspace } from "./people.ts";
import { sendSlackPress, sendSlackReaction } from "./send-slack.ts";
import { type DiscordSend, pressDiscord } from "./send-discord.ts";
import { clickGoogleChat } from "./send-google-chat.ts";
import { pressTelegram } from "./send-telegram.ts";

const slackTs = z.string().regex(/^\d+\.\d+$/);
const onMessage = { person: z.string(), workspace: z.string(), ts: slackTs };
const reactRequest = z.object({ ...onMessage, reaction: z.enum(["white_check_mark", "x"]) });
const pressRequest = z.discriminatedUnion("platform", [
  z.object({
    platform: z.literal("slack"),
    ...onMessage,
    threadTs: slackTs.optional(),
    block: z.string().min(1).max(255),
    id: z.string().min(1).max(255),
    label: z.string().min(1).max(75),
    // Block Kit's limit on a button's value.
    value: z.string().min(1).max(2_000).optional(),
  }),
  z.object({
    platform: z.literal("telegram"),
    person: z.string(),
    chat: z.number().int(),
    messageId: z.number().int().positive(),
    id: z.string().min(1).max(64),
  }),
  z.object({
    platform: z.literal("discord"),
    person: z.string(),
    channelId: z.string().regex(/^\d{1,20}$/),
    messageId: z.string().regex(/^\d{1,20}$/),
    // Discord's limit on a button's custom_id.
    id: z.string().min(1).max(100),
  }),
  z.object({
    platform: z.literal("google-chat"),
    person: z.string(),
    space: z.string().regex(/^spaces\/[A-Za-z0-9_-]+$/),
    message: z.string().min(1).max(300),
    label: z.string().min(1).max(200),
  }),
]);

export interface ActionsContext {
  workerUrl: string;
  signingSecret: string;
  slackFakeUrl: string;
  telegramFakeUrl: string;
  googleChatFakeUrl: string;
  /** Where a Discord press goes, signed as Discord signs it (./send-discord.ts). */
  discord: DiscordSend;
  workspaces(): SlackWorkspace[];
}

/** Answers `/api/react` and `/api/press`; false for any other request. */
export async function handleAction(
  ctx: ActionsContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<boolean> {
  if (req.method !== "POST" || (path !== "/api/react" && path !== "/api/press")) return false;
  const body: unknown = JSON.parse((await readBody(req)) || "{}");
  if (path === "/api/press") {
    const press = pressRequest.safeParse(body);
    const person = press.success ? personByHandle(press.data.person) : undefined;
    if (!press.success || !person) {
      sendJson(res, 400, { error: "a press names its platform, a person, the message and the button" });
      return true;
    }
    if (press.data.platform === "telegram") {
      sendJson(res, 200, await pressTelegram(ctx.telegramFakeUrl, person, press.data));
      return true;
    }
    if (press.data.platform === "discord") {
      const pressed = await pressDiscord(ctx.discord, person, press.data);
      sendJson(res, pressed.status === 200 ? 200 : 502, pressed);
      return true;
    }
    if (press.data.platform === "google-chat") {
      const { status } = await clickGoogleChat(ctx.googleChatFakeUrl, person, press.data);
      sendJson(res, status === 200 ? 200 : 502, { status });
      return true;
    }
    const workspace = ctx.workspaces().find((w) => w.team === (press.data as { workspace: string }).workspace);
    if (!workspace) {
      sendJson(res, 400, { error: "a press on Slack names a workspace the simulator installed" });
      return true;
    }
    const status = await sendSlackPress(signed(ctx), workspace, person, press.data);
    sendJson(res, status === 200 ? 200 : 502, { status });
    return true;
  }
  const parsed = reactRequest.safeParse(body);
  const person = parsed.success ? personByHandle(parsed.data.person) : undefined;
  const workspace = parsed.success ? ctx.workspaces().find((w) => w.team === parsed.data.workspace) : undefined;
  if (!parsed.success || !person || !workspace) {
    sendJson(res, 400, { error: "a reaction names ✅ or ❌, a person, a workspace and a message" });
    return true;
  }
  const { ts, reaction } = parsed.data;
  const reacted = { team: workspace.team, channel: SLACK_CHANNEL, ts, user: person.slackUserId, name: reaction };
  await fetch(`${ctx.slackFakeUrl}/__reactions`, { method: "POST", body: JSON.stringify(reacted) });
  const status = await sendSlackReaction(signed(ctx), workspace, person, ts, reaction);
  sendJson(res, status === 200 ? 200 : 502, { status });
  return true;
}

const signed = (ctx: ActionsContext) => ({ workerUrl: ctx.workerUrl, signingSecret: ctx.signingSecret });
