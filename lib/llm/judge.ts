/**
 * @module
 * The "should the bot answer?" judge: the conversation as a transcript, one JSON record per message (people's as
 * the prompt carries them, the bot's marked `"bot": true`), and one YES/NO question; anything but YES is NO. A
 * record keeps its text inside its string, so no message in the transcript can pose as another or as the bot's.
 */
import type OpenAI from "openai";
import type { ChatMessage } from "../context/chat-message.ts";
import type { Prompt } from "../context/prompt.ts";
import { personRecords, recordLine } from "../context/turns.ts";
import { complete } from "./completion.ts";
import { JUDGE_CONVERSATION_HEADING, JUDGE_LAST_MESSAGE_HEADING, JUDGE_SYSTEM, judgeQuestion } from "./wording.ts";

/** Room for "YES" or "NO", and a little for models that add a word. */
export const JUDGE_MAX_TOKENS = 5;

export async function judgeShouldAnswer(
  client: OpenAI,
  prompt: Prompt,
  model: string,
  onUsage?: (tokens: number) => void,
): Promise<boolean> {
  const answer = await complete(client, {
    model,
    messages: judgeMessages(prompt),
    maxTokens: JUDGE_MAX_TOKENS,
    ...(onUsage ? { onUsage } : {}),
  });
  return /^\W*yes\b/i.test(answer.trim());
}

function judgeMessages(prompt: Prompt): ChatMessage[] {
  // The conversation only: the judge needs neither the instructions nor the data block.
  const lines = prompt.messages
    .slice(prompt.turnsFrom)
    .flatMap((m) =>
      m.role === "assistant"
        ? [recordLine({ author: prompt.botName, bot: true, text: m.content })]
        : personRecords(m.content).map((r) => recordLine(r)),
    );
  const earlier = lines.slice(0, -1);
  const content = [
    ...(earlier.length > 0 ? [JUDGE_CONVERSATION_HEADING, ...earlier, ""] : []),
    JUDGE_LAST_MESSAGE_HEADING,
    lines.at(-1) ?? "",
    "",
    judgeQuestion(prompt.botName),
  ].join("\n");
  return [
    { role: "system", content: JUDGE_SYSTEM },
    { role: "user", content },
  ];
}
