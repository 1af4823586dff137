/**
 * @module
 * An approval's controls on Discord (lib/approvals/capability.ts): the question, as posted, gets an action row of two
 * buttons (Approve in the success style, Cancel in the danger style) through an edit of its message (the
 * interaction's webhook for an `/ask` answer, within its token's 15 minutes; the bot's channel edit otherwise); once
 * decided, the row gives way to the outcome on a line under the question. A button's `custom_id` is Parley's prefix
 * and the control's id (`parley_approval:approve`): a press of any other component is not Parley's. A press is
 * answered in the interaction's HTTP response: a deferred update (type 6) when it decided (the outcome's edit
 * follows), else a note only the presser sees (type 4, ephemeral).
 */
import type {
  APIActionRowComponent,
  APIButtonComponentWithCustomId,
  ButtonStyle,
  ComponentType,
  RESTPatchAPIChannelMessageJSONBody,
  RESTPatchAPIInteractionFollowupJSONBody,
} from "discord-api-types/v10";
import type { Control, ControlPress } from "../../approvals/capability.ts";
import type { ReplyContext } from "../adapter.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { discordMarkdown } from "./format.ts";
import { APPROVAL_CUSTOM_ID_PREFIX } from "./component.ts";
import { DEFERRED_UPDATE, privateNote } from "./responses.ts";
import { discordRequest } from "./rest.ts";
import { NO_MENTIONS } from "./send.ts";
import type { DiscordSettings } from "./settings.ts";
import type { DiscordTarget } from "./target.ts";

/** The longest outcome line (lib/notices.ts CONTROL_OUTCOMES, with a mention) and the blank line above it. */
export const OUTCOME_ROOM_CHARS = 100;
// discord-api-types' enums are types only here (its runtime is not in the Worker's bundle): their values, named.
export const ACTION_ROW: ComponentType.ActionRow = 1;
export const BUTTON: ComponentType.Button = 2;
const STYLES: Record<Control["style"], ButtonStyle.Success | ButtonStyle.Danger> = { approve: 3, cancel: 4 };

type EditBody = RESTPatchAPIChannelMessageJSONBody & RESTPatchAPIInteractionFollowupJSONBody;

/** Edits message `ref` where `target` posted it: an `/ask` answer through its interaction's webhook. */
export async function edit(ctx: ReplyContext<DiscordSettings>, target: DiscordTarget, ref: string, body: EditBody) {
  const common = { apiBaseUrl: ctx.config.DISCORD_API_BASE_URL, fetch: ctx.fetch, method: "PATCH" as const, body };
  await waitingOutRateLimits(async () =>
    target.kind === "interaction"
      ? discordRequest({
          ...common,
          path: `/webhooks/${target.applicationId}/${target.token}/messages/${ref}`,
          what: "edit an interaction's message",
        })
      : discordRequest({
          ...common,
          path: `/channels/${target.channelId}/messages/${ref}`,
          what: "edit a channel message",
          botToken: await ctx.token(),
        }),
  );
}

function buttonRow(controls: readonly Control[]): APIActionRowComponent<APIButtonComponentWithCustomId> {
  return {
    type: ACTION_ROW,
    components: controls.map((control) => ({
      type: BUTTON,
      custom_id: `${APPROVAL_CUSTOM_ID_PREFIX}${control.id}`,
      label: control.label,
      style: STYLES[control.style],
    })),
  };
}

export const discordControls = {
  offer: (
    ctx: ReplyContext<DiscordSettings>,
    target: DiscordTarget,
    ref: string,
    question: string,
    controls: readonly Control[],
  ) =>
    edit(ctx, target, ref, {
      content: discordMarkdown(question),
      components: [buttonRow(controls)],
      allowed_mentions: NO_MENTIONS,
    }),
  // The outcome names the asker with a mention, which shows their name and (allowed_mentions) pings nobody.
  settle: (ctx: ReplyContext<DiscordSettings>, target: DiscordTarget, ref: string, question: string, outcome: string) =>
    edit(ctx, target, ref, {
      content: discordMarkdown(`${question}\n\n${outcome}`),
      components: [],
      allowed_mentions: NO_MENTIONS,
    }),
  answer: async (_ctx: ReplyContext<DiscordSettings>, _press: ControlPress, note: string | null) =>
    Response.json(note === null ? DEFERRED_UPDATE : privateNote(note)),
  mention: (person: string) => `<@${person}>`,
};
