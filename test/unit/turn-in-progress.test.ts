/**
 * @module
 * What the decider is told about an answer still being streamed (lib/conversation/speaking.ts): it is the bot's
 * latest turn for a message written after its first words showed, not for one written before, and not once a
 * later answer is recorded.
 */
import { describe, expect, it } from "vitest";
import { speakingOf, withTurnInProgress } from "../../lib/conversation/speaking.ts";
import { decideResponse, type DecidableMessage } from "../../lib/decide/index.ts";
import type { BotIdentity, ConversationState, StoredMessage } from "../../lib/message.ts";

const BOT: BotIdentity = { userId: "UBOT", name: "Parley", aliases: [] };
const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const OPTS = { followupWindowSeconds: 60, useJudge: false };

const said = (id: string, authorId: string, text: string, seconds: number): StoredMessage => ({
  id,
  role: authorId === BOT.userId ? "assistant" : "user",
  authorId,
  authorName: authorId.slice(1).toLowerCase(),
  text,
  ts: T0 + seconds * 1000,
});

/** Maya asked the bot about kilobytes; its answer began to show 2 s later; someone writes `text` at `seconds`. */
function whileStreaming(text: string, seconds: number) {
  const question = said("q", "UMAYA", "parley: how many bytes are in a kilobyte?", 0);
  const speaking = { ...said("speaking-q", "UBOT", "A kilobyte is 1,000 bytes", 2), replyToAuthorId: "UMAYA" };
  const current = said("now", "UOWEN", text, seconds);
  const state: ConversationState = {
    active: true,
    id: "c1",
    startedAt: T0,
    lastActivityAt: current.ts,
    lastBotReplyTo: [],
    answeredThrough: 0,
    recent: [question, current],
  };
  const msg: DecidableMessage = {
    author: { id: "UOWEN", name: "owen", isBot: false },
    text,
    ts: current.ts,
    addressing: "none",
    mentions: [],
  };
  return { state, speaking, current, msg };
}

describe("an answer still being streamed, as the decider sees it", () => {
  it("makes a follow-up written after its first words a continuation; without it the bot has not spoken", () => {
    const { state, speaking, current, msg } = whileStreaming("and what about a megabyte versus a mebibyte?", 5);
    const told = withTurnInProgress(state, speaking, current);
    expect(told.recent.map((m) => m.id)).toEqual(["q", "speaking-q", "now"]);
    expect(told).toMatchObject({ lastBotReplyAt: speaking.ts, lastBotReplyTo: ["UMAYA"] });
    expect(decideResponse(told, msg, BOT, OPTS)).toMatchObject({ respond: "yes", reason: "continuation" });
    expect(decideResponse(state, msg, BOT, OPTS)).toMatchObject({ respond: "no", reason: "no_trigger" });
  });

  it("is not there for a message written before its first words showed, nor once a later answer is recorded", () => {
    const { state, speaking, current } = whileStreaming("and what about a megabyte?", 1);
    expect(withTurnInProgress(state, speaking, current)).toBe(state);
    const later = whileStreaming("and what about a megabyte?", 5);
    const recorded = { ...later.state, lastBotReplyAt: T0 + 3_000 };
    expect(withTurnInProgress(recorded, later.speaking, later.current)).toBe(recorded);
  });

  it("is read from the state as stored; a malformed one is no turn", () => {
    const { speaking } = whileStreaming("x", 5);
    expect(speakingOf(JSON.stringify({ id: "c1", startedAt: T0, speaking }))).toEqual(speaking);
    expect(speakingOf({ id: "c1", startedAt: T0 })).toBeUndefined();
    expect(speakingOf(JSON.stringify({ id: "c1", speaking: { text: 3 } }))).toBeUndefined();
    expect(speakingOf("")).toBeUndefined();
  });
});
