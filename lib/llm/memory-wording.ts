/**
 * @module
 * The fixed words of the memory calls: folding old messages into the running summary, and extracting facts about
 * people. The local model (dev/local-model) recognises each call by its closing instruction.
 */

export const SUMMARY_SYSTEM =
  "You keep the running summary of a group chat. Keep names, goals, decisions, dates and open questions; drop small talk.";
export const PREVIOUS_SUMMARY_HEADING = "Summary so far:";
export const FOLDED_MESSAGES_HEADING = "Messages to add:";
/** Ends every summary request; identifies a summary call. */
export const SUMMARY_INSTRUCTION_TAIL = "Write the updated summary as short lines, one fact per line.";
export const summaryInstruction = (maxWords: number) => `Stay under ${maxWords} words. ${SUMMARY_INSTRUCTION_TAIL}`;

export const FACTS_SYSTEM =
  "You extract durable facts about the people in a chat (goals, preferences, names, plans, where they live or work). " +
  "Only facts a person states about themselves; nothing about the bot; nothing temporary or trivial.";
export const KNOWN_FACTS_HEADING = "Known facts:";
export const EXCHANGE_HEADING = "Latest exchange:";
/** Ends every extraction request; identifies an extraction call. */
export const FACTS_INSTRUCTION_TAIL =
  'Answer only JSON: {"facts":[{"person":"<id in brackets>","fact":"<short third-person fact>","replaces":"<known fact it contradicts, if any>"}]}';

/** `[U123] Alice: text`: how people appear in memory requests, so the model can name them by id. */
export const personLine = (id: string, name: string, text: string) => `[${id}] ${name}: ${text}`;
/** `Parley (the bot): text`, as the judge writes the bot's turns. */
export const botLine = (botName: string, text: string) => `${botName} (the bot): ${text}`;
