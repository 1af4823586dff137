/**
 * @module
 * An approval's controls on Google Chat (lib/approvals/capability.ts): a Cards v2 card of one button list (Approve
 * filled, Cancel outlined) put on the question by `spaces.messages.patch` (`updateMask=cardsV2`; only Chat apps make
 * cards, with app authentication). Each button's `onClick.action` names the function Chat invokes, which for an app
 * built as a Workspace add-on must be its HTTP endpoint ("For HTTP add-ons, the function is the URL"), so with an
 * endpoint-URL audience it is that URL and with a project number a name; the control's id travels as the action
 * parameter `parley_control` (./click.ts). A click is answered in the event's response, framed as the event was: the
 * asker's deciding click with the message updated (`actionResponse` UPDATE_MESSAGE, or the add-on's
 * `updateMessageAction`), its words kept, the outcome under them and the card gone; any other with a private message
 * only the clicker sees (`privateMessageViewer`). The continuation settles the question with the same text, so the
 * two land in either order alike; a mention is Chat's `<users/…>`, which shows the person's name.
 */
import type { Control, ControlPress } from "../../approvals/capability.ts";
import { CONTROL_OUTCOMES } from "../../notices.ts";
import type { ReplyContext } from "../adapter.ts";
import { withBackoff } from "./api.ts";
import { CONTROL_PARAMETER } from "./click.ts";
import type { Framing } from "./event.ts";
import { googleChatText } from "./format.ts";
import { patchMessage } from "./send.ts";
import { audienceOf, type GoogleChatSettings } from "./settings.ts";
import type { GoogleChatTarget } from "./target.ts";

/** The longest outcome line (lib/notices.ts CONTROL_OUTCOMES, with a mention) and the blank line above it. */
export const OUTCOME_ROOM_CHARS = 200;
const CARD_ID = "parley_approval";
/** The function a button names where the events' audience is the project number (an app, never an add-on). */
const CONTROL_FUNCTION = "parley_control";

type Ctx = ReplyContext<GoogleChatSettings>;

function approvalCard(config: GoogleChatSettings, controls: readonly Control[]) {
  const audience = audienceOf(config.GOOGLE_CHAT_AUDIENCE ?? "");
  const fn = audience?.mode === "endpoint" ? audience.url : CONTROL_FUNCTION;
  const buttons = controls.map((c) => ({
    text: c.label,
    type: c.style === "approve" ? "FILLED" : "OUTLINED",
    onClick: { action: { function: fn, parameters: [{ key: CONTROL_PARAMETER, value: c.id }] } },
  }));
  return { cardId: CARD_ID, card: { sections: [{ widgets: [{ buttonList: { buttons } }] }] } };
}

/** Parley's own words (an outcome, a note) in Chat's format, its mentions of people kept as mentions. */
function notice(markdown: string): string {
  return googleChatText(markdown).replaceAll("\uFF1Cusers/", "<users/");
}

/** The question's text as shown, the outcome under it. */
const decided = (shown: string, outcome: string) => `${shown}\n\n${notice(outcome)}`;

/** The event's response, in the framing the click came in: the message updated, or a private message. */
function clickResponse(framing: Framing, message: Record<string, unknown>, update: boolean): Response {
  if (framing === "add-on") {
    const action = update ? { updateMessageAction: { message } } : { createMessageAction: { message } };
    return Response.json({ hostAppDataAction: { chatDataAction: action } });
  }
  return Response.json({ actionResponse: { type: update ? "UPDATE_MESSAGE" : "NEW_MESSAGE" }, ...message });
}

const mention = (person: string) => `<${person}>`;

export const googleChatControls = {
  async offer(ctx: Ctx, target: GoogleChatTarget, ref: string, _question: string, controls: readonly Control[]) {
    await withBackoff(() => patchMessage(ctx, target, ref, { cardsV2: [approvalCard(ctx.config, controls)] }));
  },
  async settle(ctx: Ctx, target: GoogleChatTarget, ref: string, question: string, outcome: string) {
    const text = decided(googleChatText(question), outcome);
    await withBackoff(() => patchMessage(ctx, target, ref, { text, cardsV2: [] }));
  },
  async answer(_ctx: Ctx, press: ControlPress, note: string | null): Promise<Response> {
    const framing: Framing = press.reply === "add-on" ? "add-on" : "interaction";
    if (note !== null)
      return clickResponse(framing, { text: notice(note), privateMessageViewer: { name: press.person } }, false);
    // The asker's click decided it (pressControl): its outcome, as the continuation will settle it.
    const outcome = (press.controlId === "approve" ? CONTROL_OUTCOMES.approved : CONTROL_OUTCOMES.denied)(
      mention(press.person),
    );
    return clickResponse(framing, { text: decided(press.shownText ?? "", outcome), cardsV2: [] }, true);
  },
  mention,
};
