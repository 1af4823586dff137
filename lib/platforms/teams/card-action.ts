/**
 * @module
 * A click of Approve or Cancel on the bot's card (./controls.ts) → a press of one of its controls
 * (lib/approvals/capability.ts). Teams delivers an `Action.Execute` as an `invoke` activity named
 * `adaptiveCard/action` whose `value.action` carries the action's `verb` and `data`, in channels, group chats and
 * 1:1 chats alike, from the person who clicked, its `replyToId` the card's message ("Work with Universal Actions for
 * Adaptive Cards", learn.microsoft.com/microsoftteams/platform/task-modules-and-cards/cards/
 * universal-actions-for-adaptive-cards/work-with-universal-actions-for-adaptive-cards). Another invoke, or an action
 * of another verb, is none of Parley's.
 */
import * as z from "../../zod.ts";
import type { Parsed } from "../adapter.ts";
import { placeOf, tenantOf } from "./place.ts";
import type { TeamsActivity } from "./schema.ts";

export const CARD_ACTION_INVOKE = "adaptiveCard/action";
/** The verb of every control's `Action.Execute`; its data names the control. */
export const CONTROL_VERB = "parley_control";

const invokeValueSchema = z.looseObject({
  action: z.looseObject({
    type: z.literal("Action.Execute"),
    verb: z.optional(z.string()),
    data: z.optional(z.looseObject({ control: z.optional(z.string()) })),
  }),
});

export function pressOfCardAction(activity: TeamsActivity): Parsed {
  const value = invokeValueSchema.safeParse(activity.value);
  if (!value.success || value.data.action.verb !== CONTROL_VERB) return { kind: "ignored", reason: "card_action" };
  const tenant = tenantOf(activity);
  if (!tenant) return { kind: "invalid", issues: "channelData.tenant.id: missing" };
  if (!activity.from || !activity.replyToId) return { kind: "invalid", issues: "from, replyToId: missing" };
  return {
    kind: "control",
    press: {
      place: placeOf(activity, tenant),
      person: activity.from.id,
      messageRef: activity.replyToId,
      controlId: value.data.action.data?.control ?? "",
      ...(activity.from.name ? { personName: activity.from.name } : {}),
    },
  };
}
