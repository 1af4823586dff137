/**
 * @module
 * The README's task as (message, player) pairs: every participant P who spoke in the 30 lines before an
 * annotated message m plays the bot, and the decider sees the channel exactly as that bot would have, up to m.
 * The only gold it is given is P's own: whom P's last message answered (a bot knows whom it answered).
 */
import type { DecidableMessage, DecideOptions } from "../../lib/decide/reasons.ts";
import type { BotIdentity, ConversationState, StoredMessage } from "../../lib/message.ts";
import type { ChatLine, ChatLog } from "./corpus.ts";

export const FIRST_ANNOTATED_LINE = 1000;
export const LOOKBACK_LINES = 30;
const MAX_OWN_CHAIN = 10;

export interface DecisionPair {
  source: string;
  line: number;
  player: string;
  /** Some gold parent of m was written by the player. */
  truth: boolean;
  state: ConversationState;
  msg: DecidableMessage;
  bot: BotIdentity;
}

function stored(line: ChatLine, player: string): StoredMessage {
  return {
    id: String(line.i),
    role: line.author === player ? "assistant" : "user",
    authorId: line.author,
    authorName: line.author,
    text: line.text,
    ts: line.ts,
  };
}

export function* decisionPairs(log: ChatLog): Generator<DecisionPair> {
  const authorOf = new Map(log.lines.map((l) => [l.i, l.author]));
  const answeredBy = (i: number): string[] =>
    (log.parents.get(i) ?? []).map((p) => authorOf.get(p)).filter((a): a is string => a !== undefined);
  /** Whom P's turn answered; a turn that continues P's own earlier turn answers whom that one answered. */
  const answeredByTurn = (i: number, player: string, hops = 0): string[] =>
    (log.parents.get(i) ?? []).flatMap((p) =>
      authorOf.get(p) === player && hops < MAX_OWN_CHAIN
        ? answeredByTurn(p, player, hops + 1)
        : (authorOf.get(p) ?? []),
    );
  for (let k = 0; k < log.lines.length; k++) {
    const m = log.lines[k]!;
    if (m.i < FIRST_ANNOTATED_LINE) continue;
    const before = log.lines.slice(Math.max(0, k - LOOKBACK_LINES), k);
    const players = new Set(before.map((l) => l.author));
    players.delete(m.author);
    const mParents = answeredBy(m.i);
    for (const player of players) {
      const lastOwn = before.findLast((l) => l.author === player)!;
      const recent = [...before, m].map((l) => stored(l, player));
      yield {
        source: log.source,
        line: m.i,
        player,
        truth: mParents.includes(player),
        state: {
          active: true,
          id: `${log.source}:${player}`,
          startedAt: before[0]?.ts ?? m.ts,
          lastActivityAt: m.ts,
          lastBotReplyAt: lastOwn.ts,
          lastBotReplyTo: [...new Set(answeredByTurn(lastOwn.i, player))],
          answeredThrough: lastOwn.ts,
          recent,
        },
        msg: {
          author: { id: m.author, name: m.author, isBot: false },
          text: m.text,
          ts: m.ts,
          addressing: "none",
          mentions: [],
        },
        bot: { userId: player, name: player, aliases: [] },
      };
    }
  }
}

/** The decider's settings in the bench: the documented default window, and no LLM. */
export const BENCH_OPTIONS: DecideOptions = { followupWindowSeconds: 60, useJudge: false };
