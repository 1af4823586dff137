/**
 * @module
 * A person clicking a button of a card on one of the app's messages, as control routes of the Google Chat fake
 * (tests, the simulator). `POST /__click {space, message, by, button, deliver?}` sends the app the click of the
 * button whose text is `button` (only a button the message shows can be clicked; a private message only by its
 * viewer), framed as the app's events are (a CARD_CLICKED interaction event, or an add-on's buttonClickedPayload,
 * whose button must name the app's endpoint URL as its function: "For HTTP add-ons, the function is the URL", else
 * Chat has nothing to invoke). With the endpoint known and `deliver`, the fake reads the app's answer and does what
 * Chat does with it; a test that posts the delivery itself hands the answer back (`POST /__click-answer {click,
 * status, body}`). An answer may update the clicked message (UPDATE_MESSAGE: only "on a CARD_CLICKED event where the
 * message sender type is BOT"; an add-on's updateMessageAction) or post a new one in its thread (NEW_MESSAGE, an
 * add-on's createMessageAction), private to one person with `privateMessageViewer`; `{}` changes nothing. Anything
 * else is refused, as Chat shows the person an error: the answer's `refused` says why.
 */
import { z } from "zod";
import { controlBody, ControlError, type ControlRoute } from "../control.ts";
import { updateMessage, viewerOf } from "./api.ts";
import { buttonsOf, checkCards } from "./cards.ts";
import { GoogleApiError } from "./errors.ts";
import { type Framing, eventBody, eventToken, postEvent } from "./events.ts";
import type { PeopleDeps } from "./people.ts";
import { FAKE_APP_USER, type FakeMessage, type FakeUser } from "./world.ts";

const clickSchema = z.strictObject({
  space: z.string(),
  message: z.string(),
  by: z.strictObject({
    name: z.string().regex(/^users\/\d{1,30}$/),
    displayName: z.string().min(1),
    type: z.enum(["HUMAN", "BOT"]).default("HUMAN"),
  }),
  /** The text of the button clicked. */
  button: z.string(),
  framing: z.enum(["interaction", "add-on"]).optional(),
  audience: z.string().optional(),
  deliver: z.boolean().default(true),
});
const answerSchema = z.strictObject({ click: z.string(), status: z.number().int(), body: z.unknown() });

interface Click {
  message: FakeMessage;
  by: FakeUser;
  framing: Framing;
}
type ClickAnswer = { applied: "updated" | "created" | "nothing" } | { refused: string };

let clicks = 0;

export function clickRoutes(deps: PeopleDeps): Record<string, ControlRoute> {
  const pending = new Map<string, Click>();
  return {
    "POST /__click": async (body) => {
      const c = controlBody(clickSchema, body);
      const space = deps.world.spaces.get(c.space);
      const message = deps.world.messages.get(c.message);
      if (!space || message?.space !== space.name) throw new ControlError(`no message ${c.message} in ${c.space}`);
      if (message.privateViewer && message.privateViewer !== c.by.name)
        throw new ControlError(`${c.by.name} does not see the private message ${c.message}`);
      const button = buttonsOf(message.cardsV2 ?? []).find((b) => b.text === c.button);
      const action = button?.onClick.action;
      if (!action) throw new ControlError(`message ${c.message} shows no button "${c.button}" with an action`);
      const s = deps.settings();
      const framing = c.framing ?? s.framing;
      if (framing === "add-on" && !/^https?:\/\//.test(action.function))
        throw new ControlError(`an add-on's button must name its endpoint URL, not "${action.function}"`);
      const token = eventToken({ ...s, audience: c.audience ?? s.audience }, framing);
      const event = { kind: "click" as const, message, action: { ...action, parameters: action.parameters ?? [] } };
      const delivery = { body: eventBody(framing, event, space, c.by, token), authorization: `Bearer ${token}` };
      deps.deliveries.push(delivery);
      const id = `click-${++clicks}`;
      const click = { message, by: c.by, framing };
      if (!c.deliver || !s.endpoint) {
        pending.set(id, click);
        return { click: id, delivery };
      }
      const answered = await postEvent(s.endpoint, delivery.authorization, delivery.body);
      return { click: id, delivery, status: answered.status, answer: applyAnswer(deps, click, answered) };
    },
    "POST /__click-answer": (body) => {
      const a = controlBody(answerSchema, body);
      const click = pending.get(a.click);
      if (!click) throw new ControlError(`no click ${a.click} waiting for its answer`);
      pending.delete(a.click);
      return applyAnswer(deps, click, a);
    },
  };
}

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

function applyAnswer(deps: PeopleDeps, click: Click, answer: { status: number; body: unknown }): ClickAnswer {
  if (answer.status !== 200) return { refused: `the app answered ${answer.status}` };
  if (answer.body && typeof answer.body === "object" && Object.keys(answer.body).length === 0)
    return { applied: "nothing" };
  const read = readAnswer(click.framing, answer.body);
  if ("refused" in read) return read;
  const { message: fields, update } = read;
  try {
    const cards = fields.cardsV2 === undefined ? undefined : checkCards(fields.cardsV2);
    const viewer = viewerOf(fields.privateMessageViewer);
    if (update) {
      if (click.message.sender.type !== "BOT" || !click.message.byApp)
        return { refused: "UPDATE_MESSAGE is only for a click on the app's own message" };
      if (viewer) return { refused: "an update cannot make a message private" };
      updateMessage(click.message, fields.text ?? click.message.text, cards ?? click.message.cardsV2);
      return { applied: "updated" };
    }
    if (!fields.text?.trim() && !cards?.length) return { refused: "the new message has neither text nor cards" };
    deps.world.add({
      space: click.message.space,
      thread: click.message.thread,
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
