/**
 * @module
 * Builds the chat prompt for one answer under a token budget: the system message (Parley's instructions only:
 * persona, name, date, how people's messages are written, the platform's notes), the data block (./data-block.ts:
 * the message the conversation is about first, then the summary, what is remembered about people and passages
 * recalled from earlier conversations, declared untrusted), the conversation as chat turns (./turns.ts: each
 * person's message a JSON record with its author), the current message last. Oldest messages go first when it does
 * not fit.
 */
import type { StoredMessage } from "../message.ts";
import type { ChatMessage } from "./chat-message.ts";
import {
  dataBlock,
  dataLine,
  DATA_BLOCK_DECLARATION,
  type DataRecord,
  type EarlierRecord,
  type FileRecord,
} from "./data-block.ts";
import type { PromptImage } from "./images.ts";
import { shortenEndToTokens, shortenToTokens } from "./shorten.ts";
import {
  BACKFILLED_DECLARATION,
  BOT_SEPARATOR,
  mergeTurns,
  PEOPLE_SEPARATOR,
  speakerName,
  toTurn,
  TURNS_DECLARATION,
  turnWithin,
} from "./turns.ts";
import { countPromptTokens, countTokens, MESSAGE_OVERHEAD_TOKENS } from "./tokens.ts";

export interface PromptInput {
  persona: string;
  botName: string;
  botUserId: string;
  now: Date;
  /** Parley's own lines for the system message (e.g. the SMS length hint); kept within the budget. */
  systemNotes?: string[];
  /** The message a thread or a reply is about, when it is not in `history`: data, first in the data block. */
  parent?: StoredMessage;
  /** The running summary: data, in the data block. */
  summary?: string;
  /** What is remembered about the people of the conversation (facts oldest first): data, in the data block. */
  people?: { name: string; facts: string[] }[];
  /**
   * Passages recalled from earlier conversations, oldest first, already within recall's share: data, last in the block.
   */
  earlier?: EarlierRecord[];
  /** Text files pasted with the current message (lib/jobs/attachments.ts): data, after the parent message. */
  files?: FileRecord[];
  /** Pictures of the current message, sent with its turn; their tokens count on top of the text's budget. */
  images?: PromptImage[];
  history: StoredMessage[]; // oldest first, WITHOUT the current message
  current: StoredMessage; // always kept, always last
  budgetTokens: number; // the whole prompt must fit, overheads included
}

export interface Prompt {
  messages: ChatMessage[];
  /** Index in `messages` of the first turn of the conversation (after the system message and the data block). */
  turnsFrom: number;
  /** Upper bound on the prompt's o200k tokens, chat overhead and images included. */
  tokens: number;
  /** Pictures the last user turn carries (lib/llm/image-parts.ts). */
  images?: PromptImage[];
  droppedMessages: number;
  shortenedMessages: number;
  /** Who the assistant turns are: lib/llm names the bot to the judge and strips an echoed "Name:". */
  botName: string;
}

/** Room kept free for what lib/llm adds to a prompt: the [SKIP] instruction, the retry nudge. */
export const RESERVED_FOR_LLM_TOKENS = 96;
/** One old message may take at most this share of the budget, so a single wall of text cannot push out the rest. */
const LONG_MESSAGE_SHARE = 4;
/** Below this many tokens a shortened older message or summary says too little to be worth keeping. */
const MIN_USEFUL_TOKENS = 24;

export function buildPrompt(input: PromptInput): Prompt {
  const limit = input.budgetTokens - RESERVED_FOR_LLM_TOKENS;
  const system = [
    input.persona,
    `Your name is ${input.botName}.`,
    `Current date and time (UTC): ${input.now.toISOString()}.`,
    TURNS_DECLARATION,
  ];
  if (input.history.some((m) => m.backfilled)) system.push(BACKFILLED_DECLARATION);
  // The fixed part: system base, the current message, and the two message frames.
  const frame = (systemText: string) => countPromptTokens([{ role: "system", content: systemText }]);
  const grownBy = (line: string) => frame([...system, line].join("\n")) - frame(system.join("\n"));
  let shortened = 0;
  let current = toTurn(input.current, input.botUserId);
  const roomForCurrent = limit - frame(system.join("\n")) - MESSAGE_OVERHEAD_TOKENS;
  if (countTokens(current.content) > roomForCurrent) {
    current = turnWithin(input.current, roomForCurrent, input.botUserId) ?? { ...current, content: "" };
    shortened++;
  }
  let left = limit - frame(system.join("\n")) - MESSAGE_OVERHEAD_TOKENS - countTokens(current.content);

  for (const note of input.systemNotes ?? []) {
    const fitted = shortenToTokens(note, left - grownBy(""));
    if (!fitted || grownBy(fitted) > left) continue;
    left -= grownBy(fitted);
    system.push(fitted);
  }

  const data = fitData(dataRecords(input), left - grownBy(DATA_BLOCK_DECLARATION));
  if (data) {
    left -= grownBy(DATA_BLOCK_DECLARATION) + data.tokens;
    system.push(DATA_BLOCK_DECLARATION);
  }

  const cap = Math.max(MIN_USEFUL_TOKENS, Math.floor(input.budgetTokens / LONG_MESSAGE_SHARE));
  const separator = Math.max(countTokens(PEOPLE_SEPARATOR), countTokens(BOT_SEPARATOR));
  const kept: ChatMessage[] = [];
  for (let i = input.history.length - 1; i >= 0; i--) {
    const message = input.history[i]!;
    let turn = toTurn(message, input.botUserId);
    const room = Math.min(cap, left - MESSAGE_OVERHEAD_TOKENS - separator);
    if (countTokens(turn.content) > room) {
      const cut = room < MIN_USEFUL_TOKENS ? null : turnWithin(message, room, input.botUserId);
      if (!cut) break;
      turn = cut;
      shortened++;
    }
    kept.unshift(turn);
    left -= countTokens(turn.content) + MESSAGE_OVERHEAD_TOKENS + separator;
  }
  let dropped = input.history.length - kept.length;

  const head: ChatMessage[] = [{ role: "system", content: system.join("\n") }, ...(data ? [data.message] : [])];
  // Joining turns can change how text splits into tokens: recount the real result and drop more if needed.
  for (;;) {
    const messages: ChatMessage[] = [...head, ...mergeTurns([...kept, current])];
    const tokens = countPromptTokens(messages);
    if (tokens <= limit || kept.length === 0) {
      const images = input.images?.length
        ? { images: input.images, tokens: tokens + input.images.reduce((sum, image) => sum + image.tokens, 0) }
        : { tokens };
      return {
        messages,
        turnsFrom: head.length,
        droppedMessages: dropped,
        shortenedMessages: shortened,
        botName: input.botName,
        ...images,
      };
    }
    kept.shift();
    dropped++;
  }
}

function dataRecords(input: PromptInput): DataRecord[] {
  return [
    ...(input.parent
      ? [{ parent_message: { author: speakerName(input.parent.authorName), text: input.parent.text } }]
      : []),
    ...(input.files ?? []),
    ...(input.summary ? [{ summary: input.summary }] : []),
    ...(input.people ?? []).filter((p) => p.facts.length > 0).map((p) => ({ person: p.name, facts: p.facts })),
    ...(input.earlier ?? []),
  ];
}

/**
 * The data block's message with as many records as fit in `room` tokens, in order; a summary or a parent message too
 * long is cut to the room left, a person with too many facts keeps the newest. null when nothing fits.
 */
function fitData(records: DataRecord[], room: number): { message: ChatMessage; tokens: number } | null {
  const lines: string[] = [];
  const cost = (candidate: string[]) => countTokens(dataBlock(candidate)) + MESSAGE_OVERHEAD_TOKENS;
  const fits = (line: string) => cost([...lines, line]) <= room;
  for (const record of records) {
    const line = fittedLine(record, fits);
    if (line) lines.push(line);
  }
  return lines.length === 0 ? null : { message: { role: "user", content: dataBlock(lines) }, tokens: cost(lines) };
}

/** The record's line as it is when it fits, else the line of the largest smaller version of it that fits. */
function fittedLine(record: DataRecord, fits: (line: string) => boolean): string | undefined {
  const whole = dataLine(record);
  if (fits(whole)) return whole;
  if ("earlier" in record) return undefined;
  if ("person" in record)
    return record.facts
      .slice(1)
      .map((_, i) => dataLine({ person: record.person, facts: record.facts.slice(i + 1) }))
      .find(fits);
  if ("summary" in record) return longestCut(record.summary, (summary) => dataLine({ summary }), fits);
  if ("file" in record) {
    const cutFile = record.file.log ? shortenEndToTokens : shortenToTokens;
    return longestCut(record.file.text, (text) => dataLine({ file: { ...record.file, text } }), fits, cutFile);
  }
  const { author, text } = record.parent_message;
  return longestCut(text, (shorter) => dataLine({ parent_message: { author, text: shorter } }), fits);
}

/**
 * The line of `text` cut to the most tokens that fit, never fewer than the shortest worth showing. By bisection: a
 * fixed ladder of ever shorter cuts left gaps, and a summary a token too long for its room fell through all of them.
 */
function longestCut(
  text: string,
  line: (shorter: string) => string,
  fits: (line: string) => boolean,
  shorten = shortenToTokens,
): string | undefined {
  let best: string | undefined;
  let low = MIN_USEFUL_TOKENS;
  let high = countTokens(text) - 1;
  while (low <= high) {
    const tokens = Math.floor((low + high) / 2);
    const candidate = line(shorten(text, tokens));
    if (fits(candidate)) {
      best = candidate;
      low = tokens + 1;
    } else {
      high = tokens - 1;
    }
  }
  return best;
}
