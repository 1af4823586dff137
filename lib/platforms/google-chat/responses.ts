/**
 * @module
 * The synchronous answer to a Chat event, in the framing the event came in (./event.ts): a Chat app answers with a
 * Message (`actionResponse` NEW_MESSAGE, or UPDATE_MESSAGE for the clicked message), a Workspace add-on with a
 * `hostAppDataAction` (`createMessageAction`, `updateMessageAction`). A click's answer (./controls.ts) and
 * `/parley`'s (./parley.ts) are both made here.
 */
import type { Framing } from "./event.ts";

/** The event's response: `message` posted as a new message (private with `privateMessageViewer`), or the update. */
export function eventResponse(framing: Framing, message: Record<string, unknown>, update: boolean): Response {
  if (framing === "add-on") {
    const action = update ? { updateMessageAction: { message } } : { createMessageAction: { message } };
    return Response.json({ hostAppDataAction: { chatDataAction: action } });
  }
  return Response.json({ actionResponse: { type: update ? "UPDATE_MESSAGE" : "NEW_MESSAGE" }, ...message });
}
