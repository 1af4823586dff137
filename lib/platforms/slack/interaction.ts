/**
 * @module
 * A Slack interaction (POST /slack/interactions: a form whose `payload` field is the JSON, signed as events are) → a
 * press of one of the bot's controls (lib/approvals/capability.ts): `block_actions` on a message, its first action
 * in Parley's approval block (the control is its `action_id`), in a streaming answer's Stop block (./stop.ts) or in its
 * feedback block (the control is the pressed feedback button's `value`: ./feedback.ts). Any other interaction (a
 * modal, a shortcut, another block) is ignored; a body that is no such form, or a payload that is not Slack's shape,
 * is invalid (400).
 */
import { describeIssues } from "../../zod-issues.ts";
import * as z from "../../zod.ts";
import type { NoExtra, Parsed, WebhookRequest } from "../adapter.ts";
import { jsonBody } from "../json-body.ts";
import { APPROVAL_BLOCK_ID } from "./controls.ts";
import { FEEDBACK_BLOCK_ID } from "./feedback.ts";
import { slackId, slackTs } from "./schema.ts";
import { stopIdOf } from "./stop.ts";

const blockActionsSchema = z.looseObject({
  type: z.literal("block_actions"),
  user: z.looseObject({ id: slackId, name: z.optional(z.string()), username: z.optional(z.string()) }),
  team: z.looseObject({ id: slackId }),
  container: z.looseObject({
    type: z.string(),
    message_ts: z.optional(slackTs),
    channel_id: z.optional(slackId),
    thread_ts: z.optional(slackTs),
  }),
  actions: z.array(
    z.looseObject({ action_id: z.string(), block_id: z.optional(z.string()), value: z.optional(z.string()) }),
  ),
});

const interactionShapeSchema = z.looseObject({ type: z.string() });

export function parseSlackInteraction(request: WebhookRequest): Parsed<NoExtra> {
  const payload = new URLSearchParams(request.rawBody).get("payload");
  if (payload === null) return { kind: "invalid", issues: "payload: missing from the form" };
  const body = jsonBody(payload);
  if (!body.ok) return { kind: "invalid", issues: "payload: not JSON" };
  const shape = interactionShapeSchema.safeParse(body.value);
  if (!shape.success) return { kind: "invalid", issues: describeIssues(shape.error, "payload.") };
  if (shape.data.type !== "block_actions") return { kind: "ignored", reason: "interaction_not_block_actions" };
  const parsed = blockActionsSchema.safeParse(body.value);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error, "payload.") };
  const { user, team, container, actions } = parsed.data;
  const [action] = actions;
  if (container.type !== "message" || !container.message_ts || !container.channel_id)
    return { kind: "ignored", reason: "interaction_not_on_message" };
  const controlId = !action
    ? undefined
    : action.block_id === APPROVAL_BLOCK_ID
      ? action.action_id
      : action.block_id?.startsWith(FEEDBACK_BLOCK_ID)
        ? action.value
        : stopIdOf(action);
  if (controlId === undefined) return { kind: "ignored", reason: "interaction_not_parley" };
  return {
    kind: "control",
    press: {
      place: { platform: "slack", tenant: team.id, channel: container.channel_id },
      person: user.id,
      messageRef: container.message_ts,
      controlId,
      personName: user.name || user.username || user.id,
      ...(container.thread_ts ? { reply: container.thread_ts } : {}),
    },
  };
}
