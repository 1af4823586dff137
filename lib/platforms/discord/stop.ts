/**
 * @module
 * Stop on a Discord answer as it is written (lib/stop/capability.ts): each progress edit of the growing message
 * carries an action row with one Stop button (danger style; its `custom_id` is `parley_` and the core's Stop id,
 * ./component.ts), and the final edit empties the row. A press is a MESSAGE_COMPONENT interaction answered with a
 * deferred update (type 6), or a note to the presser alone (./controls.ts). Besides the asker, a member whose
 * permissions in the channel let them manage it (Manage Channels or Administrator, as for `/parley`: the
 * interaction carries them) may stop an answer.
 */
import type { APIActionRowComponent, APIButtonComponentWithCustomId, ButtonStyle } from "discord-api-types/v10";
import type { ControlPress } from "../../approvals/capability.ts";
import { stopControlId } from "../../stop/capability.ts";
import type { AnswerFor } from "../answer-stream.ts";
import { parleyCustomId } from "./component.ts";
import { ACTION_ROW, BUTTON } from "./controls.ts";

const DANGER: ButtonStyle.Danger = 4;

/** The row a growing answer's message shows under it while it is written. */
export const stopRow = (answer: AnswerFor): APIActionRowComponent<APIButtonComponentWithCustomId> => ({
  type: ACTION_ROW,
  components: [{ type: BUTTON, custom_id: parleyCustomId(stopControlId(answer)), label: "Stop", style: DANGER }],
});

export const discordStop = {
  mayStopAny: async (_ctx: unknown, press: ControlPress) => press.mayManage === true,
};
