/**
 * @module
 * What Slack posts when a person presses a button of the bot's message: the documented `block_actions` interaction
 * payload (test/fixtures/platforms/slack/block-actions.json, its source noted there), form-encoded as `payload=`.
 * The one builder of it for the tests, the benches and the simulator; signing it is the caller's (dev/signers/).
 */
import blockActions from "../../../test/fixtures/platforms/slack/block-actions.json" with { type: "json" };

export interface SlackPress {
  team: string;
  /** The workspace's subdomain, as `team.domain` carries it (kept as the fixture's when not given). */
  teamDomain?: string;
  channel: string;
  user: { id: string; name?: string };
  /** The pressed message's ts, and its thread's when it is a thread reply. */
  ts: string;
  threadTs?: string;
  action: {
    action_id: string;
    block_id?: string;
    /** A feedback button's element type is `feedback_buttons` and it sends the pressed button's value. */
    type?: "button" | "feedback_buttons";
    value?: string;
    label?: string;
  };
}

type Payload = typeof blockActions.payload & {
  container: { thread_ts?: string };
  message: { thread_ts?: string };
  actions: Record<string, unknown>[];
};

let presses = 0;

/** The `payload=` form body of `press`, in the shape Slack documents. */
export function slackPressForm(press: SlackPress): string {
  const payload = structuredClone(blockActions.payload) as Payload;
  const { label, ...action } = press.action;
  Object.assign(payload.user, {
    id: press.user.id,
    team_id: press.team,
    ...(press.user.name ? { name: press.user.name, username: press.user.name } : {}),
  });
  Object.assign(payload.team, { id: press.team, ...(press.teamDomain ? { domain: press.teamDomain } : {}) });
  Object.assign(payload.channel, { id: press.channel });
  Object.assign(payload.container, { message_ts: press.ts, channel_id: press.channel });
  Object.assign(payload.message, { ts: press.ts, team: press.team });
  if (press.threadTs) payload.container.thread_ts = payload.message.thread_ts = press.threadTs;
  // Each press is its own: Slack makes a new trigger id for every one, a double click's too.
  payload.trigger_id = `${Date.now()}.${++presses}.${Math.floor(Math.random() * 1e9)}`;
  Object.assign(payload.actions[0]!, action, label ? { text: { type: "plain_text", text: label, emoji: true } } : {});
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}
