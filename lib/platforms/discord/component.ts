/**
 * @module
 * A press of a button on one of the bot's messages (a MESSAGE_COMPONENT interaction, type 3) → a press of one of its
 * controls (lib/approvals/capability.ts): who pressed (`member.user` in a server, `user` in a DM; whether their
 * permissions there let them manage the channel), on which message, in which channel, which control (the
 * `custom_id` after Parley's prefix; a feedback or Stop button's after `parley_`: its control id begins `feedback:`,
 * lib/feedback/capability.ts, or `stop:`, lib/stop/capability.ts). A component that is not Parley's is no
 * press (told by its custom id alone); a press of Parley's without its message or channel is not Discord's shape.
 */
import { describeIssues } from "../../zod-issues.ts";
import * as z from "../../zod.ts";
import type { ControlPress } from "../../approvals/capability.ts";
import { FEEDBACK_ID_PREFIX } from "../../feedback/capability.ts";
import { mayManageChannel } from "./parley.ts";
import { type DiscordInteraction, displayName, snowflake } from "./schema.ts";

/** What every approval button's `custom_id` starts with; the control's id follows it (≤ 100 characters in all). */
export const APPROVAL_CUSTOM_ID_PREFIX = "parley_approval:";

const BEFORE_ID = "parley_";
/**
 * A feedback or Stop button's `custom_id`: `parley_` and the control's id (`parley_feedback:down:u`; a Stop's
 * `parley_stop:<trigger>:<asker>`, two snowflakes: at most 53 characters, within Discord's 100).
 */
export const parleyCustomId = (controlId: string): string => `${BEFORE_ID}${controlId}`;
const FEEDBACK_CUSTOM_ID_PREFIX = parleyCustomId(FEEDBACK_ID_PREFIX);
const STOP_CUSTOM_ID_PREFIX = parleyCustomId("stop:");

/** Only the custom id, to tell Parley's components from anyone else's before anything else is read. */
const customIdSchema = z.looseObject({ data: z.looseObject({ custom_id: z.string() }) });

const componentSchema = z.looseObject({
  channel_id: snowflake,
  data: z.looseObject({ custom_id: z.string().check(z.minLength(1)), component_type: z.number().check(z.int()) }),
  message: z.looseObject({ id: snowflake }),
});

export type ComponentParsed =
  | { kind: "control"; press: ControlPress }
  | { kind: "unsupported"; reason: string }
  | { kind: "invalid"; issues: string };

/** `tenantOf`: the place's tenant for the person who pressed (./parse.ts: a DM's is the person's own). */
export function parseDiscordComponent(
  interaction: DiscordInteraction,
  tenantOf: (userId: string) => string,
): ComponentParsed {
  const customId = customIdSchema.safeParse(interaction);
  const id = customId.success ? customId.data.data.custom_id : "";
  const from = id.startsWith(APPROVAL_CUSTOM_ID_PREFIX)
    ? APPROVAL_CUSTOM_ID_PREFIX.length
    : id.startsWith(FEEDBACK_CUSTOM_ID_PREFIX) || id.startsWith(STOP_CUSTOM_ID_PREFIX)
      ? BEFORE_ID.length
      : null;
  if (from === null) return { kind: "unsupported", reason: "component" };
  const parsed = componentSchema.safeParse(interaction);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error) };
  const user = interaction.member?.user ?? interaction.user;
  if (!user) return { kind: "invalid", issues: "member.user/user: missing" };
  const { channel_id: channel, data, message } = parsed.data;
  return {
    kind: "control",
    press: {
      place: { platform: "discord", tenant: tenantOf(user.id), channel },
      person: user.id,
      messageRef: message.id,
      controlId: data.custom_id.slice(from),
      personName: displayName(user, interaction.member),
      ...(interaction.member?.permissions ? { mayManage: mayManageChannel(interaction.member.permissions) } : {}),
    },
  };
}
