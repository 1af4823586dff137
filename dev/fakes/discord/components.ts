/**
 * @module
 * Message components as the Discord fake takes them, on a message's create or edit and in an interaction's answer
 * (discord/discord-api-docs, Message_Components.md of its interactions docs; discord-api-types' APIActionRowComponent
 * and APIButtonComponent): at most 5 action rows (type 1) a message, each of 1-5 buttons (type 2); a button's style
 * 1-6, its label at most 80 characters; a non-link button (styles 1-4) with a `custom_id` of 1-100 characters, unique
 * on the message, and no `url`; a link button (5) with a `url` and no `custom_id`. Only the components Parley sends are
 * known (a select menu, or a layout component, is refused): a new kind is checked here before it is used.
 */
import type { ServerResponse } from "node:http";
import { sendInvalidFormBody } from "./errors.ts";

const MAX_ROWS = 5;
const MAX_BUTTONS_PER_ROW = 5;
const MAX_LABEL = 80;
const MAX_CUSTOM_ID = 100;
const ACTION_ROW = 1;
const BUTTON = 2;
const LINK_STYLE = 5;
const STYLES: ReadonlySet<unknown> = new Set([1, 2, 3, 4, 5, 6]);

/** Why Discord refuses a message's components: the field and its error, as 50035 Invalid Form Body names them. */
export interface ComponentsRefusal {
  field: string;
  code: string;
  message: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const refusal = (field: string, code: string, message: string): ComponentsRefusal => ({ field, code, message });

function buttonRefusal(button: unknown, at: string, seen: Set<string>): ComponentsRefusal | undefined {
  if (!isObject(button) || button.type !== BUTTON)
    return refusal(`${at}.type`, "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (2,).');
  if (!STYLES.has(button.style)) return refusal(`${at}.style`, "BASE_TYPE_CHOICES", "Value must be one of 1-6.");
  if (button.label !== undefined && (typeof button.label !== "string" || button.label.length > MAX_LABEL))
    return refusal(`${at}.label`, "BASE_TYPE_MAX_LENGTH", `Must be ${MAX_LABEL} or fewer in length.`);
  if (button.style === LINK_STYLE)
    return typeof button.url === "string" && button.custom_id === undefined
      ? undefined
      : refusal(`${at}.url`, "BUTTON_COMPONENT_URL_REQUIRED", "A link button needs a url and no custom_id.");
  const id = button.custom_id;
  if (typeof id !== "string" || id.length === 0)
    return refusal(`${at}.custom_id`, "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A custom id is required");
  if (id.length > MAX_CUSTOM_ID)
    return refusal(`${at}.custom_id`, "BASE_TYPE_MAX_LENGTH", `Must be ${MAX_CUSTOM_ID} or fewer in length.`);
  if (button.url !== undefined)
    return refusal(`${at}.url`, "BUTTON_COMPONENT_INVALID_URL", "A non-link button cannot have a url.");
  if (seen.has(id))
    return refusal(`${at}.custom_id`, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated");
  seen.add(id);
  return undefined;
}

/** Why `value` (a body's `components`) would be refused; undefined when Discord takes it (or it is absent). */
export function componentsRefusal(value: unknown): ComponentsRefusal | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return refusal("components", "BASE_TYPE_LIST", "Must be an array.");
  if (value.length > MAX_ROWS)
    return refusal("components", "BASE_TYPE_MAX_LENGTH", `Must be ${MAX_ROWS} or fewer in length.`);
  const seen = new Set<string>();
  for (const [r, row] of value.entries()) {
    const at = `components.${r}`;
    if (!isObject(row) || row.type !== ACTION_ROW)
      return refusal(`${at}.type`, "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).');
    const buttons = row.components;
    if (!Array.isArray(buttons) || buttons.length === 0 || buttons.length > MAX_BUTTONS_PER_ROW)
      return refusal(
        `${at}.components`,
        "BASE_TYPE_BAD_LENGTH",
        `Must be between 1 and ${MAX_BUTTONS_PER_ROW} in length.`,
      );
    for (const [b, button] of buttons.entries()) {
      const refused = buttonRefusal(button, `${at}.components.${b}`, seen);
      if (refused) return refused;
    }
  }
  return undefined;
}

/** Answers 50035 for components Discord would refuse; true when it did. */
export function refusedComponents(res: ServerResponse, body: Json): boolean {
  const refused = componentsRefusal(body.components);
  if (refused) sendInvalidFormBody(res, refused.field, refused.code, refused.message);
  return refused !== undefined;
}

/** What the message shows once `body` is carried out: its components replaced when the body has them. */
export function keepComponents(message: { components?: unknown[] }, body: Json): void {
  if (Array.isArray(body.components)) message.components = body.components;
}
