/**
 * @module
 * What the local model says when no rule matches: for the judge, YES when the last message asks something; for the
 * memory calls, the deterministic modes of memory-answers.ts; for a catch-up, catch-up-answer.ts; for a reply, a
 * short line that shows what context it received, so a developer sees the engine work without an API key, or to a
 * request for a "rollback plan" an answer in Markdown (formatted-answer.ts).
 */
import { DATA_BLOCK_OPEN } from "../../lib/context/data-block.ts";
import { personRecords } from "../../lib/context/turns.ts";
import { JUDGE_LAST_MESSAGE_HEADING, JUDGE_QUESTION_TAIL } from "../../lib/llm/wording.ts";
import { CATCH_UP_INSTRUCTION_TAIL } from "../../lib/catch-up/model.ts";
import { FACTS_INSTRUCTION_TAIL, SUMMARY_INSTRUCTION_TAIL } from "../../lib/llm/memory-wording.ts";
import { catchUpAnswer } from "./catch-up-answer.ts";
import { FORMATTED_ANSWER, FORMATTED_ANSWER_ASK } from "./formatted-answer.ts";
import { describeImage } from "./images.ts";
import { factsAnswer, summaryAnswer } from "./memory-answers.ts";
import { lastUserMessage, type ChatRequest } from "./script.ts";

const QUOTE_LIMIT = 80;

/**
 * Which call of the engine a request is, by its closing wording: fault rules can pick one (`bodyContains:
 * "\"kind\":\"reply\""`).
 */
export type CallKind = "judge" | "summary" | "facts" | "catchup" | "reply";

export function callKind(req: ChatRequest): CallKind {
  const last = lastUserMessage(req);
  if (last.includes(JUDGE_QUESTION_TAIL)) return "judge";
  if (last.endsWith(SUMMARY_INSTRUCTION_TAIL)) return "summary";
  if (last.endsWith(FACTS_INSTRUCTION_TAIL)) return "facts";
  if (last.endsWith(CATCH_UP_INSTRUCTION_TAIL)) return "catchup";
  return "reply";
}

export function defaultAnswer(req: ChatRequest): string {
  const last = lastUserMessage(req);
  const kind = callKind(req);
  if (kind === "judge") return judgeAnswer(last);
  if (kind === "summary") return summaryAnswer(last, req.max_completion_tokens ?? req.max_tokens);
  if (kind === "facts") return factsAnswer(last);
  if (kind === "catchup") return catchUpAnswer(last);
  // People's messages, one record per line of each user turn (lib/context/turns.ts); the last is the one being
  // answered. The data block (what the bot remembers) is not a message of anyone's.
  // A caller other than Parley (a direct request) writes plain text: one message of "you".
  const people = req.messages
    .filter((m) => m.role === "user" && !m.content.startsWith(DATA_BLOCK_OPEN))
    .flatMap((m) => {
      const records = personRecords(m.content);
      return records.length > 0 ? records : [{ author: "you", text: m.content }];
    });
  const said = people.pop()?.text ?? "";
  if (FORMATTED_ANSWER_ASK.test(said)) return FORMATTED_ANSWER;
  const answers = req.messages.filter((m) => m.role === "assistant").length;
  const speakers = [...new Set(people.map((m) => m.author))];
  const mine = answers === 0 ? "" : ` and ${answers} of my answers`;
  const seen =
    people.length === 0
      ? `no earlier messages${mine}`
      : `${people.length} earlier message${people.length === 1 ? "" : "s"} from ${speakers.join(" and ")}${mine}`;
  const quote = said.length > QUOTE_LIMIT ? `${said.slice(0, QUOTE_LIMIT)}…` : said;
  const pictures = req.messages.flatMap((m) => ("images" in m ? (m.images ?? []) : []));
  const seenPictures = pictures.length
    ? ` In the picture${pictures.length === 1 ? "" : "s"}: ${pictures.map(describeImage).join("; ")}.`
    : "";
  return `(local model) I see ${seen}. You said: "${quote}"${seenPictures}`;
}

function judgeAnswer(judgeRequest: string): string {
  const start = judgeRequest.indexOf(JUDGE_LAST_MESSAGE_HEADING);
  const lastMessage = judgeRequest.slice(start + JUDGE_LAST_MESSAGE_HEADING.length, judgeRequest.lastIndexOf("\n\n"));
  return lastMessage.includes("?") ? "YES" : "NO";
}
