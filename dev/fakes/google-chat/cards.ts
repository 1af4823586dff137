/**
 * @module
 * Cards v2 as the Chat API takes them on a message (`cardsV2[]`: `cardId`, `card` of `header` and `sections` of
 * `widgets`; the reference's Card, Section, Widget, ButtonList, Button, OnClick, Action and ActionParameter), held to
 * the fields those define for the widgets the fake knows (a text paragraph, a divider, a button list): an unknown
 * field is refused as Google refuses one ("Unknown name"), a button with neither text nor icon, an `onClick` with
 * other than exactly one of its kinds, an action without a function and a parameter without a key are invalid.
 * "You can add up to 100 widgets per card. Any widgets beyond this limit are ignored": the fake keeps the first 100.
 * The whole message stays within its 32,000 bytes (./api.ts).
 */
import { z } from "zod";
import { refusals } from "./errors.ts";

const MAX_WIDGETS = 100;

const parameterSchema = z.strictObject({ key: z.string().min(1), value: z.string() });
const actionSchema = z.strictObject({
  function: z.string().min(1),
  parameters: z.array(parameterSchema).optional(),
  loadIndicator: z.enum(["SPINNER", "NONE"]).optional(),
  persistValues: z.boolean().optional(),
  interaction: z.enum(["INTERACTION_UNSPECIFIED", "OPEN_DIALOG"]).optional(),
});
const onClickSchema = z
  .strictObject({ action: actionSchema.optional(), openLink: z.strictObject({ url: z.url() }).optional() })
  .refine((o) => Object.keys(o).length === 1, "onClick takes exactly one of action, openLink");
const buttonSchema = z
  .strictObject({
    text: z.string().optional(),
    icon: z.strictObject({ knownIcon: z.string().optional(), materialIcon: z.unknown().optional() }).optional(),
    type: z.enum(["TYPE_UNSPECIFIED", "OUTLINED", "FILLED", "FILLED_TONAL", "BORDERLESS"]).optional(),
    color: z.unknown().optional(),
    disabled: z.boolean().optional(),
    altText: z.string().optional(),
    onClick: onClickSchema,
  })
  .refine((b) => Boolean(b.text?.trim()) || b.icon !== undefined, "a button needs its text or an icon");
const widgetSchema = z.union([
  z.strictObject({ textParagraph: z.strictObject({ text: z.string(), maxLines: z.number().int().optional() }) }),
  z.strictObject({ divider: z.strictObject({}) }),
  z.strictObject({ buttonList: z.strictObject({ buttons: z.array(buttonSchema).min(1) }) }),
]);
const cardSchema = z.strictObject({
  header: z.strictObject({ title: z.string().min(1), subtitle: z.string().optional() }).optional(),
  sections: z
    .array(
      z.strictObject({
        header: z.string().optional(),
        widgets: z.array(widgetSchema),
      }),
    )
    .min(1),
});
const cardsSchema = z.array(z.strictObject({ cardId: z.string().min(1).optional(), card: cardSchema }));

export type FakeCard = z.output<typeof cardsSchema>[number];
export type FakeButton = z.output<typeof buttonSchema>;

/** The message's cards as Chat keeps them; refused as Google refuses a malformed one. */
export function checkCards(value: unknown): FakeCard[] {
  const parsed = cardsSchema.safeParse(value);
  if (parsed.success) return cardsWithinLimit(parsed.data);
  const issue = parsed.error.issues[0]!;
  const where = ["cardsV2", ...issue.path].join(".");
  const unknown = issue.code === "unrecognized_keys" ? ` Unknown name "${issue.keys.join('", "')}"` : "";
  throw refusals.invalid(`Invalid JSON payload received.${unknown} at ${where}: ${issue.message}`);
}

/** Widgets past 100 in a card are ignored, counted over its sections. */
function cardsWithinLimit(cards: FakeCard[]): FakeCard[] {
  return cards.map((c) => {
    let left = MAX_WIDGETS;
    const sections = c.card.sections.map((s) => {
      const widgets = s.widgets.slice(0, Math.max(0, left));
      left -= widgets.length;
      return { ...s, widgets };
    });
    return { ...c, card: { ...c.card, sections } };
  });
}

/** Every button of the cards, in order. */
export function buttonsOf(cards: readonly FakeCard[]): FakeButton[] {
  return cards.flatMap((c) =>
    c.card.sections.flatMap((s) => s.widgets.flatMap((w) => ("buttonList" in w ? w.buttonList.buttons : []))),
  );
}
