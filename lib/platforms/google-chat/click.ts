/**
 * @module
 * A click of a button on one of the app's cards (a `CARD_CLICKED` interaction event, or an add-on's
 * `buttonClickedPayload`) → a press of one of its controls (lib/approvals/capability.ts): who clicked (`user`), on
 * which of the app's messages of which space and thread (the place read from the message, as every message's),
 * which control (the button's `parley_control` parameter, ./controls.ts: a click that carries none answers
 * nothing), how the app receives its events (the press's answer is framed alike) and the message's text (the answer
 * rewrites the message, keeping it). A click on a card of a person's message (a link preview's) is none of Parley's.
 */
import type { Parsed } from "../adapter.ts";
import type { ClickEvent } from "./event.ts";
import { messageIdOf, placeOf } from "./place.ts";

/** The action parameter every control's button carries: the control's id. */
export const CONTROL_PARAMETER = "parley_control";

export function pressOfClick(event: ClickEvent): Parsed {
  const { message, space, user, parameters } = event;
  if (!user) return { kind: "invalid", issues: "user: missing" };
  if (message.sender && message.sender.type !== "BOT") return { kind: "ignored", reason: "click_on_person_message" };
  return {
    kind: "control",
    press: {
      place: placeOf(space, message),
      person: user.name,
      messageRef: messageIdOf(message.name),
      controlId: parameters[CONTROL_PARAMETER] ?? "",
      reply: event.framing,
      shownText: message.text ?? "",
    },
  };
}
