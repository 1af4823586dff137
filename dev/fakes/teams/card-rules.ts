/**
 * @module
 * Cards in the fake's Teams, as strict as Teams for what the bot sends ("Cards reference", "Universal Actions for
 * Adaptive Cards"): a message's attachments (at most 10) each name a `contentType`; an Adaptive Card
 * (`application/vnd.microsoft.card.adaptive`) is `type: AdaptiveCard` of a `version` Teams renders (at most 1.5),
 * its actions of the types Teams knows, and an `Action.Execute` only on a card of version 1.5 (below it Teams does
 * not render the action: the fake refuses such a card outright, 400 `BadArgument`, so a test sees it).
 */
import { z } from "zod";

export const ADAPTIVE_CARD = "application/vnd.microsoft.card.adaptive";
export const CLICKER_MESSAGE = "application/vnd.microsoft.activity.message";
const ACTION_TYPES = new Set(["Action.Execute", "Action.Submit", "Action.OpenUrl", "Action.ShowCard"]);
const RENDERED_VERSIONS = new Set(["1.0", "1.1", "1.2", "1.3", "1.4", "1.5"]);

const action = z.looseObject({
  type: z.string(),
  title: z.optional(z.string()),
  verb: z.optional(z.string()),
  data: z.optional(z.unknown()),
});
const adaptiveCard = z.looseObject({
  type: z.literal("AdaptiveCard"),
  version: z.string(),
  body: z.optional(z.array(z.looseObject({ type: z.string() }))),
  actions: z.optional(z.array(action)),
});
export type FakeCard = z.output<typeof adaptiveCard>;
const attachments = z
  .array(z.looseObject({ contentType: z.string().min(1), content: z.optional(z.unknown()) }))
  .max(10);

/** The message's cards, or why Teams would not take or show them. */
export function readAttachments(value: unknown): { cards: FakeCard[] } | { refused: string } {
  if (value === undefined) return { cards: [] };
  const parsed = attachments.safeParse(value);
  if (!parsed.success) return { refused: "attachments: malformed" };
  const cards: FakeCard[] = [];
  for (const attachment of parsed.data) {
    if (attachment.contentType !== ADAPTIVE_CARD) continue;
    const card = adaptiveCard.safeParse(attachment.content);
    if (!card.success) return { refused: "adaptive card: malformed" };
    const { version, actions = [] } = card.data;
    if (!RENDERED_VERSIONS.has(version)) return { refused: `adaptive card: version ${version} not rendered` };
    for (const a of actions) {
      if (!ACTION_TYPES.has(a.type)) return { refused: `adaptive card: unknown action ${a.type}` };
      if (a.type === "Action.Execute" && version !== "1.5") return { refused: "Action.Execute needs version 1.5" };
    }
    cards.push(card.data);
  }
  return { cards };
}
