/**
 * @module
 * Builds the chat prompt for one answer under a token budget: the system message (persona, name, date, summary,
 * notes), the conversation as chat turns, the current message last. Oldest messages go first when it does not fit.
 */
import type { StoredMessage } from "../conversation/types.ts";
import type { ChatMessage } from "./chat-message.ts";
import { shortenToTokens } from "./shorten.ts";
import { mergeTurns, MERGED_TURN_SEPARATOR, severalHumans, toTurn, type TurnOptions } from "./turns.ts";
import { countPromptTokens, countTokens, MESSAGE_OVERHEAD_TOKENS } from "./tokens.ts";

export interface PromptInput {
  persona: string;
  botName: string;
  botUserId: string;
  now: Date;
  summary?: string;
  /** Extra system lines, e.g. the SMS length hint or facts about people; kept within the budget. */
  systemNotes?: string[];
  history: StoredMessage[]; // oldest first, WITHOUT the current message
  current: StoredMessage; // always kept, always last
  budgetTokens: number; // the whole prompt must fit, overheads included
}

export interface Prompt {
  messages: ChatMessage[];
  /** Upper bound on the prompt's o200k tokens, chat overhead included. */
  tokens: number;
  droppedMessages: number;
  shortenedMessages: number;
  /** Who the assistant turns are: lib/llm names the bot to the judge and strips an echoed "Name:". */
  botName: string;
}

/** Room kept free for what lib/llm adds to a prompt: the [SKIP] instruction, the retry nudge. */
export const RESERVED_FOR_LLM_TOKENS = 96;
/** One old message may take at most this share of the budget, so a single wall of text cannot push out the rest. */
const LONG_MESSAGE_SHARE = 4;
/** Below this many tokens a shortened older message says too little to be worth keeping. */
const MIN_USEFUL_TOKENS = 24;

export function buildPrompt(input: PromptInput): Prompt {
  const limit = input.budgetTokens - RESERVED_FOR_LLM_TOKENS;
  const turnOptions: TurnOptions = {
    botUserId: input.botUserId,
    speakerNames: severalHumans([...input.history, input.current], input.botUserId),
  };
  const system = [input.persona, `Your name is ${input.botName}.`, `Current date and time (UTC): ${input.now.toISOString()}.`];
  // The fixed part: system base, the current message, and the two message frames.
  const frame = (systemText: string) => countPromptTokens([{ role: "system", content: systemText }]);
  let shortened = 0;
  let current = toTurn(input.current, input.current.text, turnOptions);
  const roomForCurrent = limit - frame(system.join("\n")) - MESSAGE_OVERHEAD_TOKENS;
  if (countTokens(current.content) > roomForCurrent) {
    current = { ...current, content: shortenToTokens(current.content, Math.max(roomForCurrent, 1)) };
    shortened++;
  }
  let left = limit - frame(system.join("\n")) - MESSAGE_OVERHEAD_TOKENS - countTokens(current.content);

  const optionalLines = [
    ...(input.summary ? [`Summary of the conversation so far: ${input.summary}`] : []),
    ...(input.systemNotes ?? []),
  ];
  for (const line of optionalLines) {
    const before = frame(system.join("\n"));
    const room = left - (frame([...system, ""].join("\n")) - before);
    const fitted = shortenToTokens(line, room);
    if (!fitted) continue;
    const grown = frame([...system, fitted].join("\n")) - before;
    if (grown > left) continue;
    system.push(fitted);
    left -= grown;
  }

  const cap = Math.max(MIN_USEFUL_TOKENS, Math.floor(input.budgetTokens / LONG_MESSAGE_SHARE));
  const separator = countTokens(MERGED_TURN_SEPARATOR);
  const kept: ChatMessage[] = [];
  for (let i = input.history.length - 1; i >= 0; i--) {
    const message = input.history[i]!;
    let turn = toTurn(message, message.text, turnOptions);
    const room = Math.min(cap, left - MESSAGE_OVERHEAD_TOKENS - separator);
    if (countTokens(turn.content) > room) {
      if (room < MIN_USEFUL_TOKENS) break;
      turn = { ...turn, content: shortenToTokens(turn.content, room) };
      shortened++;
    }
    kept.unshift(turn);
    left -= countTokens(turn.content) + MESSAGE_OVERHEAD_TOKENS + separator;
  }
  let dropped = input.history.length - kept.length;

  // Joining turns can change how text splits into tokens: recount the real result and drop more if needed.
  for (;;) {
    const messages: ChatMessage[] = [{ role: "system", content: system.join("\n") }, ...mergeTurns([...kept, current])];
    const tokens = countPromptTokens(messages);
    if (tokens <= limit || kept.length === 0) {
      return { messages, tokens, droppedMessages: dropped, shortenedMessages: shortened, botName: input.botName };
    }
    kept.shift();
    dropped++;
  }
}
