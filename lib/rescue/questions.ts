/**
 * @module
 * Questions nobody picked up: which messages are a person's question addressed to nobody (decided at the webhook,
 * from what the decider already read: no extra Redis command), and, once RESCUE_AFTER_MINUTES have passed, whether
 * anyone answered it, read from what was said after it with the decider's own reply-chain model (lib/decide/chains.ts):
 * a reply in the question's thread, a platform reply to its author, or a message the model links to its author
 * at least as surely as the place's eagerness asks. The rescue job (lib/rescue/job.ts) steps in only when nobody
 * did; bench/rescue measures both on irc-replies.
 */
import type { BotIdentity, StoredMessage } from "../message.ts";
import { channelReader, readView } from "../decide/channel.ts";
import { inferLink } from "../decide/chains.ts";
import { normalizeText } from "../decide/names.ts";
import type { DecidableMessage, Decision } from "../decide/reasons.ts";
import { addressesStranger } from "../decide/rules.ts";
import { CANDIDATE_WEIGHTS } from "../decide/weights.ts";

/** How a question opens when it does not end with a question mark ("anyone know a good mirror for this?"). */
const QUESTION_OPENING = new RegExp(
  `^(?:who|what|when|where|why|how|which|whose|is|are|was|were|do|does|did|can|could|would|will|should|` +
    String.raw`has|have|anyone|anybody|somebody|someone|any)\b`,
  "u",
);
/** Shorter than this ("why?", "and?") it is a reaction in a conversation, not a question of its own. */
const MIN_WORDS = 3;

/**
 * A person's question that the decider left to nobody: not to the bot, not to anyone named, mentioned or replied to.
 */
export function isOpenQuestion(msg: DecidableMessage, decision: Decision): boolean {
  if (decision.respond !== "no" || decision.reason !== "no_trigger" || msg.author.isBot || msg.feedback) return false;
  if (msg.mentions.length > 0 || msg.replyToAuthorId !== undefined || addressesStranger(msg.text)) return false;
  const text = normalizeText(msg.text).trim();
  if (text.split(/\s+/u).length < MIN_WORDS || !text.includes("?")) return false;
  return /\?[\s\p{P}\p{S}]*$/u.test(text) || QUESTION_OPENING.test(text);
}

/**
 * How surely the model must link a later message to the asker for it to count as their answer: low for a bot that
 * would rather not step in (eagerness 0: a faint link is an answer), higher for an eager one (100: only a clear
 * one is). Chosen on irc-replies' train split (`npm run bench:rescue -- --split train`): at the default eagerness (50)
 * precision 0.893, recall 0.606; at 25 0.920 / 0.576; at 100 0.790 / 0.662.
 */
function answeredThreshold(eagerness: number): number {
  const e = Math.min(100, Math.max(0, eagerness)) / 100;
  return ANSWERED_AT_0 + (ANSWERED_AT_100 - ANSWERED_AT_0) * e;
}
/** Chosen on train only; the dev split was read once, for docs/initiative.md. */
const ANSWERED_AT_0 = 0.1;
const ANSWERED_AT_100 = 0.9;

/** The messages the model reads around each later one: as many as the decider's view. */
const CONTEXT = 20;

export interface AfterQuestion {
  /** What the channel held before the question (for the model's context), oldest first; may be empty. */
  before: readonly StoredMessage[];
  question: StoredMessage;
  /** What was said in the place after it within the wait, oldest first. */
  later: readonly StoredMessage[];
  /** Replies in the question's own thread (Slack), whoever wrote them. */
  threadReplies: readonly StoredMessage[];
}

/** Whether someone (a person, or the bot itself) answered the question in what came after it. */
export function answeredAfter(talk: AfterQuestion, bot: BotIdentity, eagerness: number): boolean {
  const asker = talk.question.authorId;
  if (talk.threadReplies.some((m) => m.authorId !== asker)) return true;
  const threshold = answeredThreshold(eagerness);
  const all = [...talk.before, talk.question, ...talk.later];
  for (let j = talk.before.length + 1; j < all.length; j++) {
    const m = all[j]!;
    if (m.authorId === asker) continue;
    if (m.replyToAuthorId === asker) return true;
    const window = all.slice(Math.max(0, j + 1 - CONTEXT), j + 1);
    const view = readView(
      channelReader(
        {
          active: true,
          id: "",
          startedAt: 0,
          lastActivityAt: m.ts,
          lastBotReplyTo: [],
          answeredThrough: 0,
          recent: window,
        },
        bot,
      ),
    );
    const link = inferLink(view, window.length - 1, CANDIDATE_WEIGHTS);
    if (link.targetId === asker && link.probability >= threshold) return true;
  }
  return false;
}
