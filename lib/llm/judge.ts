/**
 * @module
 * The "should the bot answer?" judge: the conversation as a transcript and one YES/NO question; anything but YES is NO.
 */
import type OpenAI from "openai";
import type { ChatMessage } from "../context/chat-message.ts";
import type { Prompt } from "../context/prompt.ts";
import { complete } from "./completion.ts";
import { JUDGE_CONVERSATION_HEADING, JUDGE_LAST_MESSAGE_HEADING, JUDGE_SYSTEM, judgeQuestion } from "./wording.ts";

/** Room for "YES" or "NO", and a little for models that add a word. */
const JUDGE_MAX_TOKENS = 5;

export async function judgeShouldAnswer(client: OpenAI, prompt: Prompt, model: string): Promise<boolean> {
  const answer = await complete(client, { model, messages: judgeMessages(prompt), maxTokens: JUDGE_MAX_TOKENS });
  return /^\W*yes\b/i.test(answer.trim());
}

export function judgeMessages(prompt: Prompt): ChatMessage[] {
  // The conversation only: the judge needs neither the instructions nor the data block.
  const turns = prompt.messages.slice(prompt.turnsFrom);
  const line = (m: ChatMessage) => (m.role === "assistant" ? `${prompt.botName} (the bot): ${m.content}` : m.content);
  const earlier = turns.slice(0, -1).map(line);
  const last = turns.at(-1);
  const content = [
    ...(earlier.length > 0 ? [JUDGE_CONVERSATION_HEADING, ...earlier, ""] : []),
    JUDGE_LAST_MESSAGE_HEADING,
    last ? line(last) : "",
    "",
    judgeQuestion(prompt.botName),
  ].join("\n");
  return [
    { role: "system", content: JUDGE_SYSTEM },
    { role: "user", content },
  ];
}
