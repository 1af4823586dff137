/**
 * @module
 * The app's synchronous answer to an event it was sent (a message, a command, a click), read and applied as Chat
 * does (./clicks.ts, ./people.ts): a Chat app's Message (`actionResponse` NEW_MESSAGE or UPDATE_MESSAGE: an update
 * only "on a CARD_CLICKED event where the message sender type is BOT"), an add-on's `createMessageAction` or
 * `updateMessageAction`; `{}` changes nothing.
 */
import { z } from "zod";
import { updateMessage, viewerOf } from "./api.ts";
import { checkCards } from "./cards.ts";
import { GoogleApiError } from "./errors.ts";
import type { Framing } from "./events.ts";
import { FAKE_APP_USER, type FakeMessage, type FakeUser, type World } from "./world.ts";

/** The event answered: the message it was about, who sent it, and the framing the answer must be in. */
export interface AnsweredEvent {
  message: FakeMessage;
  by: FakeUser;
  framing: Framing;
}
export type EventAnswer = { applied: "updated" | "created" | "nothing" } | { refused: string };

const interactionAnswer = z.strictObject({
  actionResponse: z.strictObject({ type: z.enum(["TYPE_UNSPECIFIED", "NEW_MESSAGE", "UPDATE_MESSAGE"]) }).optional(),
  text: z.string().optional(),
  cardsV2: z.unknown().optional(),
  privateMessageViewer: z.unknown().optional(),
});
const addOnMessage = interactionAnswer.omit({ actionResponse: true });
const addOnAnswer = z.strictObject({
  hostAppDataAction: z.strictObject({
    chatDataAction: z.union([
      z.strictObject({ updateMessageAction: z.strictObject({ message: addOnMessage }) }),
      z.strictObject({ createMessageAction: z.strictObject({ message: addOnMessage }) }),
    ]),
  }),
});

/**
 * What Chat does with the app's answer to `event`: nothing for `{}`, the clicked message updated, or a new message
 * in the event's thread (private to one person with `privateMessageViewer`); anything else refused, as Chat shows
 * the person an error.
 */
export function applyAnswer(
  world: World,
  event: AnsweredEvent,
  answer: { status: number; body: unknown },
): EventAnswer {
  if (answer.status !== 200) return { refused: `the app answered ${answer.status}` };
  if (answer.body && typeof answer.body === "object" && Object.keys(answer.body).length === 0)
    return { applied: "nothing" };
  const read = readAnswer(event.framing, answer.body);
  if ("refused" in read) return read;
  const { message: fields, update } = read;
  try {
    const cards = fields.cardsV2 === undefined ? undefined : checkCards(fields.cardsV2);
    const viewer = viewerOf(fields.privateMessageViewer);
    if (update) {
      if (event.message.sender.type !== "BOT" || !event.message.byApp)
        return { refused: "UPDATE_MESSAGE is only for a click on the app's own message" };
      if (viewer) return { refused: "an update cannot make a message private" };
      updateMessage(event.message, fields.text ?? event.message.text, cards ?? event.message.cardsV2);
      return { applied: "updated" };
    }
    if (!fields.text?.trim() && !cards?.length) return { refused: "the new message has neither text nor cards" };
    world.add({
      space: event.message.space,
      thread: event.message.thread,
      threadReply: true,
      sender: FAKE_APP_USER,
      text: fields.text ?? "",
      byApp: true,
      annotations: [],
      attachment: [],
      cardsV2: cards ?? [],
      ...(viewer ? { privateViewer: viewer } : {}),
    });
    return { applied: "created" };
  } catch (err) {
    if (err instanceof GoogleApiError) return { refused: err.message };
    throw err;
  }
}

type AnswerFields = z.output<typeof addOnMessage>;

function readAnswer(framing: Framing, body: unknown): { message: AnswerFields; update: boolean } | { refused: string } {
  if (framing === "interaction") {
    const parsed = interactionAnswer.safeParse(body);
    if (!parsed.success) return { refused: `not a Chat app's answer: ${parsed.error.issues[0]!.message}` };
    const { actionResponse, ...message } = parsed.data;
    return { message, update: actionResponse?.type === "UPDATE_MESSAGE" };
  }
  const parsed = addOnAnswer.safeParse(body);
  if (!parsed.success) return { refused: `not an add-on's answer: ${parsed.error.issues[0]!.message}` };
  const action = parsed.data.hostAppDataAction.chatDataAction;
  return "updateMessageAction" in action
    ? { message: action.updateMessageAction.message, update: true }
    : { message: action.createMessageAction.message, update: false };
}
