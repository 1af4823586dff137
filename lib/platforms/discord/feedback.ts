/**
 * @module
 * Feedback on answers on Discord (lib/feedback/capability.ts): the answer's last message gets an action row of two
 * buttons in the secondary style (👍, 👎; each `custom_id` is `parley_` and the control's id, ./component.ts), through
 * an edit of its components alone (its content stays as posted), where the answer was posted (./controls.ts). A
 * press is answered as an approval's is; a 👎 under an unprompted answer is recorded as a 👎 reaction is.
 */
import type { ButtonStyle } from "discord-api-types/v10";
import type { ControlPress } from "../../approvals/capability.ts";
import type { FeedbackControl } from "../../feedback/capability.ts";
import type { ReplyContext } from "../adapter.ts";
import { parleyCustomId } from "./component.ts";
import { ACTION_ROW, BUTTON, edit } from "./controls.ts";
import { discordNotYou } from "./gateway/reaction.ts";
import type { DiscordSettings } from "./settings.ts";
import type { DiscordTarget } from "./target.ts";

const SECONDARY: ButtonStyle.Secondary = 2;

export const discordFeedback = {
  offer: (
    ctx: ReplyContext<DiscordSettings>,
    target: DiscordTarget,
    ref: string,
    _answer: string,
    controls: readonly FeedbackControl[],
  ) =>
    edit(ctx, target, ref, {
      components: [
        {
          type: ACTION_ROW,
          components: controls.map((control) => ({
            type: BUTTON,
            custom_id: parleyCustomId(control.id),
            label: control.label,
            style: SECONDARY,
          })),
        },
      ],
    }),
  notYou: (press: ControlPress, now: number) =>
    discordNotYou(press.place, press.messageRef, { id: press.person, name: press.person }, now),
};
