/**
 * @module
 * Clicks on the bot's cards in the fake's Teams (its cards' rules: ./card-rules.ts). People's side:
 * `POST /__click {conversation, activity, from, control}` clicks the `Action.Execute` whose data names `control` on
 * one of the bot's cards and answers the `adaptiveCard/action` invoke Teams would send the bot (never posted: the
 * test delivers it); `POST /__invoke-answer {activity, status, body}` hands Teams the bot's answer to it, which must
 * be HTTP 200 with an AdaptiveCardInvokeResponse (`statusCode` 200, `type` a card, which replaces the clicked card, or
 * `application/vnd.microsoft.activity.message`, a text shown to the clicker alone): `{refused}` when it is not.
 */
import { z } from "zod";
import { type ControlRoute, controlBody } from "../control.ts";
import type { FakeSigningKey } from "../signing-keys.ts";
import { ADAPTIVE_CARD, CLICKER_MESSAGE, readAttachments } from "./card-rules.ts";
import { activityToken, type Bot, messageActivity } from "./activities.ts";
import type { FakeActivity, World } from "./world.ts";

const clickSchema = z.strictObject({
  conversation: z.string().min(1),
  activity: z.string().min(1),
  from: z.strictObject({ id: z.string().regex(/^29:/), name: z.string().min(1) }),
  control: z.string(),
});
const answerSchema = z.strictObject({ activity: z.string().min(1), status: z.number(), body: z.unknown() });
const invokeResponse = z.strictObject({
  statusCode: z.literal(200),
  type: z.enum([ADAPTIVE_CARD, CLICKER_MESSAGE]),
  value: z.unknown(),
});

interface CardDeps {
  world: World;
  bot: () => Bot;
  serviceUrl: () => string;
  key: FakeSigningKey;
}

/** The `Action.Execute` on the activity's card whose data names `control`. */
function executeOn(card: FakeActivity | undefined, control: string) {
  return card?.cards
    ?.flatMap((c) => c.actions ?? [])
    .find((a) => {
      const data = a.data as { control?: unknown } | undefined;
      return a.type === "Action.Execute" && data?.control === control;
    });
}

export function cardRoutes(deps: CardDeps): Record<string, ControlRoute> {
  return {
    "POST /__click": (body) => {
      const click = controlBody(clickSchema, body);
      const conversation = deps.world.conversations.get(click.conversation);
      const clicked = deps.world.activity(click.conversation, click.activity);
      const execute = executeOn(clicked, click.control);
      if (!conversation || !clicked || !execute) throw new Error("no such button on that message");
      const bot = deps.bot();
      const at = { ...clicked, id: deps.world.nextId(), from: click.from, text: "" };
      const {
        text: _text,
        textFormat: _format,
        ...envelope
      } = messageActivity(conversation, at, {
        bot,
        serviceUrl: deps.serviceUrl(),
        mentioned: false,
      });
      const invoke = {
        ...envelope,
        type: "invoke",
        name: "adaptiveCard/action",
        replyToId: clicked.id,
        value: { action: { type: "Action.Execute", verb: execute.verb, data: execute.data }, trigger: "manual" },
      };
      const token = activityToken(deps.key, { appId: bot.appId, serviceUrl: deps.serviceUrl() });
      return { delivery: { body: invoke, authorization: `Bearer ${token}` } };
    },
    "POST /__invoke-answer": (body) => {
      const answer = controlBody(answerSchema, body);
      const response = invokeResponse.safeParse(answer.body);
      if (answer.status !== 200 || !response.success) return { refused: "not an AdaptiveCardInvokeResponse" };
      if (response.data.type === CLICKER_MESSAGE)
        return typeof response.data.value === "string" ? { shownToClicker: response.data.value } : { refused: "value" };
      const read = readAttachments([{ contentType: ADAPTIVE_CARD, content: response.data.value }]);
      if ("refused" in read) return read;
      const clicked = deps.world.activities.get(answer.activity);
      if (clicked) clicked.cards = read.cards;
      return { replaced: true };
    },
  };
}
