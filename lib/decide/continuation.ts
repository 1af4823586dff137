/**
 * @module
 * Bot-directed continuations: a participant's message that follows the bot's answer within the follow-up window,
 * continues its topic (shares a word with the answer or the question it answered, or opens as a follow-up does:
 * "and in a gallon?", "what about bananas?", "which of those…?") and addresses no one else. The IRC-trained
 * model cannot see these (on IRC a bystander's question is rarely for the player), so they get their own path:
 * a `strong` continuation (a question on the topic, nobody else drawn in) is answered, a `weak` one only goes to
 * the LLM judge when it is on.
 */
import type { ChannelMessage, ChannelView } from "./channel.ts";

export type Continuation = "strong" | "weak";

/** Earlier answers of the bot stay the topic for this long: a third person may ask about the first answer. */
const TOPIC_SPAN_MS = 5 * 60_000;
const FOLLOW_UP_MAX_WORDS = 12;
const FOLLOW_UP_OPENER = /^(?:and|also|what about|how about|but|or|so|then|which|what if)\b/u;
/** Words that point back at what the bot just said ("does that lock…", "which of those…"); not "it", which on IRC
 * points at the asker's own problem as often. */
const POINTS_BACK = /\b(?:that|those|these|ones)\b/u;

/** "planets" meets "planet": a plural is the same topic. */
function stem(word: string): string {
  return word.length > 4 && word.endsWith("s") ? word.slice(0, -1) : word;
}

function sharesTopic(view: ChannelView, topic: readonly ChannelMessage[]): boolean {
  const text = view.words.words;
  const stems = new Set<string>();
  for (const m of topic) for (const w of m.words) stems.add(stem(text[w]!));
  for (const w of view.current.words) if (stems.has(stem(text[w]!))) return true;
  return false;
}

function addressesSomeone(m: ChannelMessage): boolean {
  return m.lead >= 0 || m.named.length > 0 || m.nicked.length > 0;
}

/** Whether the message at hand continues the bot's latest answer, and how surely. */
export function continuation(view: ChannelView, answeredIds: readonly string[], windowMs: number): Continuation | null {
  const { messages, current, botId } = view;
  const last = messages.length - 1;
  let answer = -1;
  for (let i = last - 1; i >= 0; i--) {
    if (messages[i]!.authorId === botId) {
      answer = i;
      break;
    }
  }
  if (answer < 0 || current.ts - messages[answer]!.ts > windowMs || addressesSomeone(current)) return null;
  const topic = topicOf(messages, answer, answeredIds);
  // Only an exchange someone opened WITH the bot has a topic others can follow up on: on IRC a player's remark to
  // the channel draws questions that are rarely for it (bench/decision: 23 replies in 310).
  if (!openedWithBot(messages, answer, botId)) return null;
  const author = current.author;
  let othersSince = 0;
  let sideExchange = false;
  for (let i = answer + 1; i < last; i++) {
    const m = messages[i]!;
    // The author is in an exchange with someone else since the answer: only a question on the answer's own
    // words still goes to the bot.
    if (m.author === author ? addressesSomeone(m) : m.lead === author || m.named.includes(author)) sideExchange = true;
    if (m.author !== author) othersSince++;
  }
  const overlaps = sharesTopic(view, topic);
  if (sideExchange) return current.isQuestion && overlaps ? "weak" : null;
  const text = current.normalized.trimStart();
  const opens = FOLLOW_UP_OPENER.test(text);
  const pointsBack = current.isQuestion && POINTS_BACK.test(text);
  // Straight after the answer (only the author spoke since): in a busy channel a later question is someone's own.
  // A follow-up is short: a long question is someone's own new one, whatever words it shares.
  const short = current.normalized.split(" ").length <= FOLLOW_UP_MAX_WORDS;
  // Someone else's question that only shares words is as often their own new one (bench/decision: on IRC, most
  // are): it needs the shape of a follow-up to be answered without the judge.
  const asker = answeredIds.includes(current.authorId);
  // "that" or "those" points back at the answer only in a question on its words: of the path's answers on IRC's
  // train split, the questions pointing back without one were replies to the player once in 94 (bench/decision).
  if (current.isQuestion && short && othersSince === 0 && (opens || ((pointsBack || asker) && overlaps)))
    return "strong";
  return overlaps || opens || pointsBack || asker ? "weak" : null;
}

/** Someone addressed the bot by name in the few minutes before its answer: the bot is in this conversation. */
function openedWithBot(messages: readonly ChannelMessage[], answer: number, botId: string): boolean {
  const latest = messages[answer]!;
  for (let i = answer - 1; i >= 0 && latest.ts - messages[i]!.ts <= TOPIC_SPAN_MS; i--) {
    if (messages[i]!.leadId === botId) return true;
  }
  return false;
}

/** The bot's answers of the last few minutes and the question the latest one answered. */
function topicOf(
  messages: readonly ChannelMessage[],
  answer: number,
  answeredIds: readonly string[],
): ChannelMessage[] {
  const latest = messages[answer]!;
  const topic: ChannelMessage[] = [];
  let question: ChannelMessage | undefined;
  for (let i = answer; i >= 0; i--) {
    const m = messages[i]!;
    if (latest.ts - m.ts > TOPIC_SPAN_MS) break;
    if (m.authorId === latest.authorId) topic.push(m);
    else if (question === undefined && answeredIds.includes(m.authorId)) question = m;
  }
  if (question !== undefined) topic.push(question);
  return topic;
}
