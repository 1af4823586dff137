/**
 * @module
 * Block Kit as the Slack fake takes it on chat.postMessage, chat.update and chat.postEphemeral: Slack's published
 * limits (docs.slack.dev, Block Kit reference: at most 50 blocks a message; a `markdown` block's text at most 12,000
 * characters, for all of a message's markdown blocks together; a `section`'s text 3,000; an `actions` block at most
 * 25 elements; a button's text 75 characters of plain_text, its `action_id` 255, its `value` 2,000, its `style`
 * primary or danger; a `context` block at most 10 elements; a `context_actions` block 1-5 elements, here only
 * `feedback_buttons`, whose `positive_button` and `negative_button` are each required with a plain_text `text` of at
 * most 75 characters, a required `value` of at most 2,000 and an optional `accessibility_label` of at most 75; a
 * `block_id` at most 255), refused as Slack refuses them (`invalid_blocks`).
 */

const MAX_BLOCKS = 50;
const MARKDOWN_MAX_CHARS = 12_000;
const SECTION_MAX_CHARS = 3_000;
const ACTIONS_MAX_ELEMENTS = 25;
const CONTEXT_MAX_ELEMENTS = 10;
const CONTEXT_ACTIONS_MAX_ELEMENTS = 5;
const BLOCK_ID_MAX_CHARS = 255;
const BUTTON_TEXT_MAX_CHARS = 75;
const ACTION_ID_MAX_CHARS = 255;
const VALUE_MAX_CHARS = 2_000;
const STYLES: ReadonlySet<unknown> = new Set(["primary", "danger"]);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const textOf = (v: unknown): string | undefined => (isObject(v) && typeof v.text === "string" ? v.text : undefined);

function buttonOk(element: unknown): boolean {
  if (!isObject(element) || element.type !== "button") return false;
  const label = element.text;
  if (!isObject(label) || label.type !== "plain_text" || typeof label.text !== "string") return false;
  if (!label.text || label.text.length > BUTTON_TEXT_MAX_CHARS) return false;
  if (
    element.action_id !== undefined &&
    (typeof element.action_id !== "string" || element.action_id.length > ACTION_ID_MAX_CHARS)
  )
    return false;
  if (element.value !== undefined && (typeof element.value !== "string" || element.value.length > VALUE_MAX_CHARS))
    return false;
  return element.style === undefined || STYLES.has(element.style);
}

const plainTextOk = (v: unknown): boolean =>
  isObject(v) &&
  v.type === "plain_text" &&
  typeof v.text === "string" &&
  v.text.length > 0 &&
  v.text.length <= BUTTON_TEXT_MAX_CHARS;
const optionalString = (v: unknown, max: number): boolean =>
  v === undefined || (typeof v === "string" && v.length <= max);

/** One of a feedback_buttons element's two buttons: `text` and `value` required. */
function feedbackButtonOk(button: unknown): boolean {
  if (!isObject(button) || !plainTextOk(button.text)) return false;
  if (typeof button.value !== "string" || button.value.length > VALUE_MAX_CHARS) return false;
  return optionalString(button.accessibility_label, BUTTON_TEXT_MAX_CHARS);
}

function feedbackButtonsOk(element: unknown): boolean {
  if (!isObject(element) || element.type !== "feedback_buttons") return false;
  if (!optionalString(element.action_id, ACTION_ID_MAX_CHARS)) return false;
  return feedbackButtonOk(element.positive_button) && feedbackButtonOk(element.negative_button);
}

/** A block's `elements`: 1 to `max` of them, each one `ok` takes. */
const elementsOk = (elements: unknown, max: number, ok: (element: unknown) => boolean): boolean =>
  Array.isArray(elements) && elements.length > 0 && elements.length <= max && elements.every(ok);

function blockOk(block: unknown): boolean {
  if (!isObject(block) || !optionalString(block.block_id, BLOCK_ID_MAX_CHARS)) return false;
  switch (block.type) {
    case "context_actions":
      return elementsOk(block.elements, CONTEXT_ACTIONS_MAX_ELEMENTS, feedbackButtonsOk);
    case "markdown":
      return typeof block.text === "string" && block.text.length > 0;
    case "section": {
      const text = textOf(block.text);
      return text !== undefined && text.length <= SECTION_MAX_CHARS;
    }
    case "actions":
      return elementsOk(block.elements, ACTIONS_MAX_ELEMENTS, buttonOk);
    case "context":
      return elementsOk(block.elements, CONTEXT_MAX_ELEMENTS, (e) => textOf(e) !== undefined);
    default:
      return false;
  }
}

/**
 * `blocks` as the method got it: undefined when absent, the blocks when Slack would take them, else Slack's error
 * code. Only the block types Parley sends are known to the fake: any other is refused, so that a new one is checked
 * here before it is used.
 */
export function readBlocks(value: unknown): Json[] | undefined | "invalid_blocks" {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_BLOCKS) return "invalid_blocks";
  if (!value.every(blockOk)) return "invalid_blocks";
  const markdownChars = value.reduce(
    (sum: number, b: Json) => sum + (b.type === "markdown" ? String(b.text).length : 0),
    0,
  );
  return markdownChars > MARKDOWN_MAX_CHARS ? "invalid_blocks" : (value as Json[]);
}
