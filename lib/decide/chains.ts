/**
 * @module
 * Who has been answering whom, inferred live: for each recent earlier message, the participant it most likely
 * answered, scored by the same stage-1 candidate model over the channel as it stood when that message was sent
 * (causal: nothing after it is read). The decision features read these chains to tell a message that continues
 * an exchange with the bot from one that continues the author's exchange with someone else.
 */
import type { ChannelView } from "./channel.ts";
import { candidateScore, sigmoid } from "./signals.ts";
import { log1p, readTurn } from "./turn.ts";

/**
 * Only the latest messages get a link inferred: older links say little about the message at hand, and each costs CPU.
 */
const CHAIN_SPAN = 8;
/** A link is inferred over this many messages up to it: enough for every candidate's recent turns. */
const CHAIN_CONTEXT = 20;
/** Candidates for an earlier message: whoever spoke in this many lines before it (as the pairs of the task). */
const CANDIDATE_LOOKBACK = 15;

export interface InferredLink {
  /** Index into view.messages of the message whose addressee was inferred. */
  index: number;
  authorId: string;
  /** The participant it most likely answered, and how likely (0 when nobody spoke before it). */
  targetId: string | null;
  probability: number;
}

export function inferLink(view: ChannelView, index: number, candidateWeights: readonly number[]): InferredLink {
  const start = Math.max(0, index + 1 - CHAIN_CONTEXT);
  const turn = readTurn(view, start, index);
  let target = -1;
  let best = -Infinity;
  const seen = [turn.author];
  for (let i = index - 1; i >= Math.max(start, index - CANDIDATE_LOOKBACK); i--) {
    const id = view.messages[i]!.author;
    if (seen.includes(id)) continue;
    seen.push(id);
    const score = candidateScore(turn, id, candidateWeights);
    if (score > best) {
      best = score;
      target = id;
    }
  }
  return {
    index,
    authorId: turn.current.authorId,
    targetId: target < 0 ? null : view.ids[target]!,
    probability: target < 0 ? 0 : sigmoid(best),
  };
}

/** Inferred links of the last CHAIN_SPAN messages before the current one, oldest first. */
export function inferReplyChains(view: ChannelView, candidateWeights: readonly number[]): InferredLink[] {
  const last = view.messages.length - 1;
  const links: InferredLink[] = [];
  for (let i = Math.max(0, last - CHAIN_SPAN); i < last; i++) links.push(inferLink(view, i, candidateWeights));
  return links;
}

export const CHAIN_FEATURES = [
  "chain_author_with_bot",
  "chain_author_with_other",
  "chain_author_last_to_bot",
  "chain_author_last_to_other",
  "chain_other_to_author_since",
  "chain_bot_to_author_since",
  "chain_prev_to_author",
  "chain_bot_last_to_other",
] as const;

/**
 * Is the current author in an exchange with the bot, or with someone else? Link strengths are summed per pair
 * of participants, in either direction.
 */
export function chainFeatures(view: ChannelView, links: readonly InferredLink[]): number[] {
  const bot = view.botId;
  const author = view.current.authorId;
  const withAuthor = new Map<string, number>();
  let authorLast: InferredLink | undefined;
  let botLast: InferredLink | undefined;
  for (const link of links) {
    if (link.authorId === author) authorLast = link;
    if (link.authorId === bot) botLast = link;
    const other = link.authorId === author ? link.targetId : link.targetId === author ? link.authorId : null;
    if (other !== null) withAuthor.set(other, (withAuthor.get(other) ?? 0) + link.probability);
  }
  let withOther = 0;
  for (const [id, strength] of withAuthor) if (id !== bot) withOther = Math.max(withOther, strength);
  let otherToAuthorSince = 0;
  let botToAuthorSince = 0;
  for (const link of links) {
    if (authorLast !== undefined && link.index <= authorLast.index) continue;
    if (link.targetId !== author) continue;
    if (link.authorId === bot) botToAuthorSince = Math.max(botToAuthorSince, link.probability);
    else otherToAuthorSince = Math.max(otherToAuthorSince, link.probability);
  }
  const prev = links[links.length - 1];
  const to = (link: InferredLink | undefined, who: (id: string) => boolean): number =>
    link !== undefined && link.targetId !== null && who(link.targetId) ? link.probability : 0;
  return [
    log1p(withAuthor.get(bot) ?? 0),
    log1p(withOther),
    to(authorLast, (id) => id === bot),
    to(authorLast, (id) => id !== bot),
    otherToAuthorSince,
    botToAuthorSince,
    prev !== undefined && prev.authorId !== bot ? to(prev, (id) => id === author) : 0,
    to(botLast, (id) => id !== author),
  ];
}
