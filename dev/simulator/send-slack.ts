/**
 * @module
 * Sends a simulated Slack channel or thread message of one workspace to the Worker the way the Events API does: an
 * `event_callback` envelope naming the workspace (`team_id`, `authorizations`: the installation it is for), signed
 * with the v0 scheme (HMAC-SHA256 of `v0:timestamp:body` with SLACK_SIGNING_SECRET). The message is put into that
 * workspace's history in the Slack fake first, as it is in Slack's when the event goes out: a thread's parent that
 * the bot never recorded is read from there (`conversations.replies`, with the workspace's own token).
 */
import { SLACK_FAKE_BOT } from "../fakes/slack.ts";
import { slackPressForm } from "../fakes/slack/press.ts";
import { slackHeaders } from "../signers/slack.ts";
import { PEOPLE, replaceMentions, SLACK_CHANNEL, type SimulatedPerson, type SlackWorkspace } from "./people.ts";

export interface SlackSend {
  workerUrl: string;
  signingSecret: string;
  botName: string;
  /** The Slack fake's origin (its `POST /__messages`). */
  slackFakeUrl: string;
}

export interface SentSlackMessage {
  ts: string;
  status: number;
}

/**
 * Slack message timestamps: seconds and microseconds, unique per channel and, like Slack's, following the clock.
 * Each person's message gets a later millisecond than the one before (the Worker orders messages by milliseconds),
 * and never millisecond 0, where the Slack fake numbers the bot's posts (000001, 000002...).
 */
let lastMs = 0;
function nextTs(): string {
  let ms = Date.now();
  if (ms % 1000 === 0) ms += 1;
  if (ms <= lastMs) ms = lastMs + (lastMs % 1000 === 999 ? 2 : 1);
  lastMs = ms;
  return `${Math.floor(ms / 1000)}.${String((ms % 1000) * 1000).padStart(6, "0")}`;
}

export async function sendSlackMessage(
  opts: SlackSend,
  workspace: SlackWorkspace,
  person: SimulatedPerson,
  text: string,
  thread?: { ts: string; parentUserId: string },
  /** Files pasted with it (./attach.ts): a `file_share` message. */
  files?: Record<string, unknown>[],
): Promise<SentSlackMessage> {
  const ts = nextTs();
  const names = [
    { name: opts.botName, id: workspace.botUserId },
    ...PEOPLE.map((p) => ({ name: p.name, id: p.slackUserId })),
  ];
  const slackText = replaceMentions(text, names, (id) => `<@${id}>`);
  const inHistory = await fetch(`${opts.slackFakeUrl}/__messages`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      team: workspace.team,
      channel: SLACK_CHANNEL,
      user: person.slackUserId,
      user_profile: { display_name: person.name, real_name: person.name },
      text: slackText,
      ts,
      ...(thread ? { thread_ts: thread.ts } : {}),
    }),
  });
  if (!inHistory.ok) throw new Error(`the Slack fake answered ${inHistory.status} to a message for its history`);
  const event = {
    type: "message",
    channel_type: "channel",
    channel: SLACK_CHANNEL,
    user: person.slackUserId,
    user_profile: { display_name: person.name, real_name: person.name },
    text: slackText,
    ts,
    event_ts: ts,
    ...(thread ? { thread_ts: thread.ts, parent_user_id: thread.parentUserId } : {}),
    ...(files ? { subtype: "file_share", files, upload: false } : {}),
  };
  const body = JSON.stringify({
    type: "event_callback",
    team_id: workspace.team,
    api_app_id: SLACK_FAKE_BOT.appId,
    event,
    event_id: `Ev${ts.replace(".", "")}`,
    event_time: Math.floor(Number(ts)),
    authorizations: [
      {
        enterprise_id: null,
        team_id: workspace.team,
        user_id: workspace.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
  });
  const res = await fetch(`${opts.workerUrl}/slack/events`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(await slackHeaders(opts.signingSecret, body)) },
    body,
  });
  await res.body?.cancel();
  return { ts, status: res.status };
}

/**
 * The person's ✅ or ❌ on one of the bot's messages, as Slack sends `reaction_added`: the answer to the bot's
 * question that asks to run a confirm tool (docs/tools.md); on any other message it does nothing.
 */
export async function sendSlackReaction(
  opts: Pick<SlackSend, "workerUrl" | "signingSecret">,
  workspace: SlackWorkspace,
  person: SimulatedPerson,
  ts: string,
  reaction: "white_check_mark" | "x",
): Promise<number> {
  const eventTs = nextTs();
  const body = JSON.stringify({
    type: "event_callback",
    team_id: workspace.team,
    api_app_id: SLACK_FAKE_BOT.appId,
    event: {
      type: "reaction_added",
      user: person.slackUserId,
      reaction,
      item_user: workspace.botUserId,
      item: { type: "message", channel: SLACK_CHANNEL, ts },
      event_ts: eventTs,
    },
    event_id: `Ev${eventTs.replace(".", "")}r`,
    event_time: Math.floor(Number(eventTs)),
    authorizations: [
      {
        enterprise_id: null,
        team_id: workspace.team,
        user_id: workspace.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
  });
  const res = await fetch(`${opts.workerUrl}/slack/events`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(await slackHeaders(opts.signingSecret, body)) },
    body,
  });
  await res.body?.cancel();
  return res.status;
}

/**
 * The person's press of a button on one of the bot's messages, as Slack posts an interaction: `block_actions`,
 * form-encoded as `payload=`, signed as events are, to the app's interactivity URL (`/slack/interactions`).
 */
export async function sendSlackPress(
  opts: Pick<SlackSend, "workerUrl" | "signingSecret">,
  workspace: SlackWorkspace,
  person: SimulatedPerson,
  press: { ts: string; threadTs?: string; block: string; id: string; label: string; value?: string },
): Promise<number> {
  const body = slackPressForm({
    team: workspace.team,
    teamDomain: workspace.name.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
    channel: SLACK_CHANNEL,
    user: { id: person.slackUserId, name: person.handle },
    ts: press.ts,
    ...(press.threadTs ? { threadTs: press.threadTs } : {}),
    action: {
      action_id: press.id,
      block_id: press.block,
      label: press.label,
      ...(press.value !== undefined ? { type: "feedback_buttons" as const, value: press.value } : {}),
    },
  });
  const res = await fetch(`${opts.workerUrl}/slack/interactions`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      ...(await slackHeaders(opts.signingSecret, body)),
    },
    body,
  });
  await res.body?.cancel();
  return res.status;
}
