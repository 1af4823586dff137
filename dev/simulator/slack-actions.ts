/**
 * @module
 * What a person does to one of the bot's Slack messages on the simulator page, sent as Slack sends it: a reaction
 * (`POST /api/react`: put on the message in the fake first, as Slack has it before it tells the app, then
 * `reaction_added`) and a press of a button the Worker put on the message (`POST /api/press`: `block_actions` to
 * `/slack/interactions`; the page draws the buttons from the message's own Block Kit, ./bot-posts.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { readBody, sendJson } from "../fakes/http.ts";
import { personByHandle, SLACK_CHANNEL, type SlackWorkspace } from "./people.ts";
import { sendSlackPress, sendSlackReaction } from "./send-slack.ts";

const slackTs = z.string().regex(/^\d+\.\d+$/);
const onMessage = { person: z.string(), workspace: z.string(), ts: slackTs };
const reactRequest = z.object({ ...onMessage, reaction: z.enum(["white_check_mark", "x"]) });
const pressRequest = z.object({
  ...onMessage,
  threadTs: slackTs.optional(),
  blockId: z.string().min(1).max(255),
  actionId: z.string().min(1).max(255),
  label: z.string().min(1).max(75),
  // Block Kit's limit on a button's value.
  value: z.string().max(2000).optional(),
});

export interface SlackActionsContext {
  workerUrl: string;
  signingSecret: string;
  slackFakeUrl: string;
  workspaces(): SlackWorkspace[];
}

/** Answers `/api/react` and `/api/press`; false for any other request. */
export async function handleSlackAction(
  ctx: SlackActionsContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<boolean> {
  if (req.method !== "POST" || (path !== "/api/react" && path !== "/api/press")) return false;
  const body: unknown = JSON.parse((await readBody(req)) || "{}");
  const parsed = (path === "/api/react" ? reactRequest : pressRequest).safeParse(body);
  const person = parsed.success ? personByHandle(parsed.data.person) : undefined;
  const workspace = parsed.success ? ctx.workspaces().find((w) => w.team === parsed.data.workspace) : undefined;
  if (!parsed.success || !person || !workspace) {
    const what = path === "/api/react" ? "a reaction names ✅ or ❌" : "a press names the block and the button";
    sendJson(res, 400, { error: `${what}, a person, a workspace and a message` });
    return true;
  }
  const to = { workerUrl: ctx.workerUrl, signingSecret: ctx.signingSecret };
  let status: number;
  if ("reaction" in parsed.data) {
    const { ts, reaction } = parsed.data;
    const reacted = { team: workspace.team, channel: SLACK_CHANNEL, ts, user: person.slackUserId, name: reaction };
    await fetch(`${ctx.slackFakeUrl}/__reactions`, { method: "POST", body: JSON.stringify(reacted) });
    status = await sendSlackReaction(to, workspace, person, ts, reaction);
  } else {
    status = await sendSlackPress(to, workspace, person, parsed.data);
  }
  sendJson(res, status === 200 ? 200 : 502, { status });
  return true;
}
