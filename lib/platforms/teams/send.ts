/**
 * @module
 * Posts the bot's answer as `message` activities to the conversation it came from (a channel's reply chain, a group
 * chat, a 1:1 chat), the first as a reply to the activity it answers (`replyToId`), in Teams' Markdown (./format.ts),
 * split into messages of at most 8,000 characters, the first ending the 1:1 chat's status line where one shows
 * (./status-line.ts). Each post a short 429 waits out. The Bot Connector takes no
 * idempotency key and cannot be asked for a conversation's activities, so a part whose call began and never came back
 * cannot be looked for: a later attempt posts it again, and it may then appear twice (docs/platforms/teams.md).
 */
import type { PartProgress } from "../../message.ts";
import { splitText } from "../../text/split.ts";
import { postParts } from "../parts.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { callConnector, type TeamsContext } from "./api.ts";
import { TEAMS_MAX_MESSAGE_CHARS, teamsMarkdown } from "./format.ts";
import { endStatusLine } from "./status-line.ts";
import type { TeamsTarget } from "./target.ts";

/** Posts one message (already in Teams' Markdown); answers its activity id. */
async function postMessage(ctx: TeamsContext, target: TeamsTarget, markdown: string, first: boolean) {
  const id = await waitingOutRateLimits(() =>
    callConnector(ctx, "send activity", target, {
      type: "message",
      text: markdown,
      textFormat: "markdown",
      ...(first && target.replyToId ? { replyToId: target.replyToId } : {}),
    }),
  );
  if (!id) throw new Error("the Bot Connector answered a post without the activity's id");
  return id;
}

/**
 * Posts an answer's first message (already in Teams' Markdown): in a 1:1 chat whose status line shows (the working
 * sign, ./status-line.ts), as the message that ends its stream, which only a message can. Answers its activity id.
 */
export async function postFirstMessage(ctx: TeamsContext, target: TeamsTarget, markdown: string) {
  return (await endStatusLine(ctx, target, markdown)) ?? postMessage(ctx, target, markdown, true);
}

/** Replaces the text of one of the bot's messages (already in Teams' Markdown). */
export async function editMessage(ctx: TeamsContext, target: TeamsTarget, activityId: string, markdown: string) {
  await callConnector(
    ctx,
    "update activity",
    target,
    { type: "message", text: markdown, textFormat: "markdown" },
    activityId,
  );
}

/** Posts `text` in order as one or more messages; returns the ids of the messages this call posted. */
export function sendTeamsReply(
  ctx: TeamsContext,
  target: TeamsTarget,
  text: string,
  progress: PartProgress,
): Promise<string[]> {
  return postParts(splitText(text, TEAMS_MAX_MESSAGE_CHARS), progress, {
    unfindable: true,
    post: (part, index) =>
      index === 0
        ? postFirstMessage(ctx, target, teamsMarkdown(part))
        : postMessage(ctx, target, teamsMarkdown(part), false),
  });
}
