/**
 * @module
 * Making an answer fit SMS: the prompt note that asks for a short plain-text answer, the cut at a sentence
 * boundary, and segment counting. A message that is all GSM-7 takes 160 characters per segment (153 when
 * concatenated); one character outside it switches the whole message to UCS-2, 70 per segment (67 concatenated).
 */
import { splitText } from "../../text/split.ts";

/** Twilio refuses longer bodies, on SMS and WhatsApp alike (error 21617). */
export const SMS_MAX_BODY_CHARS = 1_600;
const GSM7_SINGLE_SEPTETS = 160;
const GSM7_PART_SEPTETS = 153;
const UCS2_SINGLE_UNITS = 70;
const UCS2_PART_UNITS = 67;
const ELLIPSIS = "...";

const GSM7_BASIC = new Set(
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ " +
    "!\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà",
);
/** Reachable through the escape character: two septets each. */
const GSM7_EXTENSION = new Set("\f^{}\\[~]|€");

/**
 * Typography models like to produce that has a GSM-7 look-alike. One curly apostrophe would otherwise turn a
 * 2-segment answer into a 5-segment one.
 */
const GSM7_LOOKALIKES: ReadonlyMap<string, string> = new Map([
  ["\u2018", "'"],
  ["\u2019", "'"],
  ["\u201C", '"'],
  ["\u201D", '"'],
  ["\u2013", "-"],
  ["\u2014", "-"],
  ["\u2026", ELLIPSIS],
  ["\u00A0", " "],
]);
const LOOKALIKE_PATTERN = /[\u2018\u2019\u201C\u201D\u2013\u2014\u2026\u00A0]/g;
const SENTENCE_END = /[.!?…。！？]['")\]]*$/;

type SmsEncoding = "GSM-7" | "UCS-2";

export interface SmsSegments {
  encoding: SmsEncoding;
  segments: number;
}

/** The system-prompt line for SMS conversations. */
export function smsLengthNote(targetChars: number): string {
  return (
    `This conversation happens over SMS text messages. Answer in plain text (no Markdown, no lists, no links ` +
    `unless asked), in at most ${targetChars} characters.`
  );
}

/** Replaces typographic characters that have a GSM-7 equivalent. */
export function toGsm7Lookalikes(text: string): string {
  return text.replace(LOOKALIKE_PATTERN, (ch) => GSM7_LOOKALIKES.get(ch) ?? ch);
}

/**
 * The answer as it is sent: GSM-7 look-alikes substituted, then cut to `maxChars` (at most 1,600) where a reader
 * expects a break (paragraph, line, sentence; a word only when no sentence ends in the second half, marked "...").
 */
export function fitSmsReply(text: string, maxChars: number): string {
  return cutAtBreak(toGsm7Lookalikes(text), maxChars);
}

/**
 * `text` trimmed and cut to `maxChars` (at most 1,600, Twilio's Body limit on every channel) where a reader expects a
 * break.
 */
export function cutAtBreak(text: string, maxChars: number): string {
  const limit = Math.min(Math.max(maxChars, ELLIPSIS.length + 2), SMS_MAX_BODY_CHARS);
  const clean = text.trim();
  if (clean.length <= limit) return clean;
  const first = splitText(clean, limit)[0] ?? "";
  if (SENTENCE_END.test(first)) return first;
  return (splitText(clean, limit - ELLIPSIS.length)[0] ?? "").replace(/[\s,;:–-]+$/, "") + ELLIPSIS;
}

/** How many SMS segments `text` takes and in which encoding. */
export function countSmsSegments(text: string): SmsSegments {
  const chars = Array.from(text);
  if (chars.length === 0) return { encoding: "GSM-7", segments: 0 };
  if (chars.every((ch) => GSM7_BASIC.has(ch) || GSM7_EXTENSION.has(ch))) {
    return {
      encoding: "GSM-7",
      segments: pack(chars, (ch) => (GSM7_EXTENSION.has(ch) ? 2 : 1), GSM7_SINGLE_SEPTETS, GSM7_PART_SEPTETS),
    };
  }
  return { encoding: "UCS-2", segments: pack(chars, (ch) => ch.length, UCS2_SINGLE_UNITS, UCS2_PART_UNITS) };
}

/**
 * Segments needed when an escape sequence or a surrogate pair is never split across two segments (phones put
 * the whole character in the next one).
 */
function pack(chars: string[], size: (ch: string) => number, single: number, part: number): number {
  const total = chars.reduce((sum, ch) => sum + size(ch), 0);
  if (total <= single) return 1;
  let segments = 1;
  let used = 0;
  for (const ch of chars) {
    const n = size(ch);
    if (used + n > part) {
      segments += 1;
      used = 0;
    }
    used += n;
  }
  return segments;
}
