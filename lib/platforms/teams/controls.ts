/**
 * @module
 * An approval's controls on Teams (lib/approvals/capability.ts): an Adaptive Card under the question with two
 * `Action.Execute` buttons, Approve (positive) and Cancel (destructive), put on by replacing the question's activity
 * (PUT) once its approval is open. `Action.Execute` rather than `Action.Submit`: a Submit arrives as a message
 * activity, which the bot can answer only with a message everyone in a channel sees, while an Execute arrives as an
 * `adaptiveCard/action` invoke (./card-action.ts) that the bot answers in the HTTP response, with a card that
 * replaces the clicked one or with a message shown to the clicker alone ("Work with Universal Actions for Adaptive
 * Cards", "Universal Actions for Adaptive Cards: response format"; the card's `version` must be 1.5 for Teams to
 * render it). The asker's deciding click is answered with the card of the outcome, the buttons gone; anyone else's,
 * a repeat or a late one with its note. The continuation settles the question with the same card for everyone, so
 * the two land in either order alike. A mention takes an entity Parley never sends: a note names the asker by name.
 */
import type { Control, ControlPress } from "../../approvals/capability.ts";
import { CONTROL_OUTCOMES } from "../../notices.ts";
import { callConnector, type TeamsContext } from "./api.ts";
import { CONTROL_VERB } from "./card-action.ts";
import { teamsMarkdown } from "./format.ts";
import type { TeamsTarget } from "./target.ts";

const ADAPTIVE_CARD = "application/vnd.microsoft.card.adaptive";
/** The invoke response that shows its `value` (text) to the person who clicked alone. */
const CLICKER_MESSAGE = "application/vnd.microsoft.activity.message";
const CARD_VERSION = "1.5";
const UNNAMED_ASKER = "the person who asked";

const card = (body: unknown[], actions: unknown[]) => ({
  type: "AdaptiveCard",
  $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
  version: CARD_VERSION,
  body,
  actions,
});

const buttonsCard = (controls: readonly Control[]) =>
  card(
    [],
    controls.map((c) => ({
      type: "Action.Execute",
      title: c.label,
      verb: CONTROL_VERB,
      data: { control: c.id },
      style: c.style === "approve" ? "positive" : "destructive",
    })),
  );

const outcomeCard = (outcome: string) => card([{ type: "TextBlock", text: outcome, wrap: true }], []);

/** Replaces the question's activity with its text and `content` as its card. */
async function replaceQuestion(
  ctx: TeamsContext,
  target: TeamsTarget,
  ref: string,
  question: string,
  content: unknown,
) {
  const activity = {
    type: "message" as const,
    text: teamsMarkdown(question),
    textFormat: "markdown" as const,
    attachments: [{ contentType: ADAPTIVE_CARD, content }],
  };
  await callConnector(ctx, "update activity", target, activity, ref);
}

const mention = (_person: string, name?: string) => name ?? UNNAMED_ASKER;

/** The invoke's answer: HTTP 200 with the AdaptiveCardInvokeResponse. */
const invokeResponse = (type: string, value: unknown) => Response.json({ statusCode: 200, type, value });

export const teamsControls = {
  async offer(ctx: TeamsContext, target: TeamsTarget, ref: string, question: string, controls: readonly Control[]) {
    await replaceQuestion(ctx, target, ref, question, buttonsCard(controls));
  },
  async settle(ctx: TeamsContext, target: TeamsTarget, ref: string, question: string, outcome: string) {
    await replaceQuestion(ctx, target, ref, question, outcomeCard(outcome));
  },
  async answer(_ctx: TeamsContext, press: ControlPress, note: string | null): Promise<Response> {
    if (note !== null) return invokeResponse(CLICKER_MESSAGE, note);
    // The asker's click decided it (pressControl): its outcome, as the continuation will settle it.
    const outcome = (press.controlId === "approve" ? CONTROL_OUTCOMES.approved : CONTROL_OUTCOMES.denied)(
      mention(press.person, press.personName),
    );
    return invokeResponse(ADAPTIVE_CARD, outcomeCard(outcome));
  },
  mention,
};
