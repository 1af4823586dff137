import { describe, expect, it } from "vitest";
import type { ConversationState, StoredMessage } from "../../lib/conversation/types.ts";
import { questionRightAfterBot } from "../../lib/decide/follows-bot.ts";
import { decideResponse } from "../../lib/decide/index.ts";

const bot = { userId: "UBOT", name: "Parley", aliases: [] };
const t0 = 1_800_000_000_000;
const stored = (id: string, role: "user" | "assistant", authorId: string, text: string, ts: number): StoredMessage => ({
  id,
  role,
  authorId,
  authorName: authorId,
  text,
  ts,
});

function afterBotState(next: { author: string; text: string; ts: number }, between: StoredMessage[] = []) {
  const recent = [
    stored("1", "user", "UALICE", "Parley, what is the capital of Peru?", t0),
    stored("2", "assistant", "UBOT", "Lima.", t0 + 2_000),
    ...between,
    stored("3", "user", next.author, next.text, next.ts),
  ];
  const state: ConversationState = {
    active: true,
    id: "c1",
    startedAt: t0,
    lastActivityAt: next.ts,
    lastBotReplyAt: t0 + 2_000,
    lastBotReplyTo: ["UALICE"],
    answeredThrough: t0,
    recent,
  };
  const msg = { author: { id: next.author, name: next.author, isBot: false }, text: next.text, ts: next.ts, addressing: "none" as const, mentions: [] };
  return { state, msg };
}

function afterBotAnswer(next: { author: string; text: string; ts: number }) {
  const { state, msg } = afterBotState(next);
  return (useJudge: boolean) => decideResponse(state, msg, bot, { followupWindowSeconds: 60, useJudge });
}

describe("a question right after the bot's answer", () => {
  it("goes to the judge when the judge is on, even from someone new", () => {
    const decide = afterBotAnswer({ author: "UBOB", text: "what about the weather there in May?", ts: t0 + 10_000 });
    expect(decide(true)).toMatchObject({ respond: "judge", reason: "judge" });
  });

  it("is not answered on this shape alone when the judge is off", () => {
    const decide = afterBotAnswer({ author: "UBOB", text: "what about the weather there in May?", ts: t0 + 10_000 });
    expect(decide(false).respond).toBe("no");
  });

  it("does not count once someone else spoke in between, after the window, or for a statement", () => {
    const base = afterBotState({ author: "UBOB", text: "is it far from here?", ts: t0 + 6_000 });
    expect(questionRightAfterBot(base.state, base.msg, bot, 60_000)).toBe(true);
    const interrupted = afterBotState({ author: "UBOB", text: "is it far from here?", ts: t0 + 6_000 }, [
      stored("x", "user", "UCAROL", "lunch anyone", t0 + 5_000),
    ]);
    expect(questionRightAfterBot(interrupted.state, interrupted.msg, bot, 60_000)).toBe(false);
    const late = afterBotState({ author: "UBOB", text: "is it far from here?", ts: t0 + 120_000 });
    expect(questionRightAfterBot(late.state, late.msg, bot, 60_000)).toBe(false);
    const statement = afterBotState({ author: "UBOB", text: "nice, thanks", ts: t0 + 6_000 });
    expect(questionRightAfterBot(statement.state, statement.msg, bot, 60_000)).toBe(false);
  });
});
