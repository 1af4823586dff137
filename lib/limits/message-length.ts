/**
 * @module
 * The cap on how much of one message is kept and taken into the prompt (MAX_MESSAGE_CHARS): a pasted log or an
 * attack must not fill the conversation store or the token budget.
 */
import type { InboundMessage } from "../message.ts";

/** Tells the model (and the admin view) that the text was cut. */
export const CUT_MARK = " […]";

/** Cuts `text` to at most `maxChars` UTF-16 units plus the mark, never inside a surrogate pair. */
export function capMessageText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + CUT_MARK;
}

export function capInboundMessage(msg: InboundMessage, maxChars: number): InboundMessage {
  return msg.text.length <= maxChars ? msg : { ...msg, text: capMessageText(msg.text, maxChars) };
}
