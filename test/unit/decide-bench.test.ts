import { describe, expect, it } from "vitest";
import { readLogs } from "../../bench/decision/corpus.ts";
import { decisionPairs } from "../../bench/decision/pairs.ts";

const FIXTURE = new URL("../fixtures/irc-tiny.jsonl", import.meta.url).pathname;

async function tinyPairs() {
  const pairs = [];
  for await (const log of readLogs(FIXTURE)) pairs.push(...decisionPairs(log));
  return pairs;
}

describe("bench/decision pair generation", () => {
  it("pairs each annotated message with every earlier speaker but its author, and marks the ones it answers", async () => {
    const pairs = await tinyPairs();
    const summary = pairs.map((p) => `${p.line}:${p.player}:${p.truth ? "reply" : "-"}`);
    expect(summary.sort()).toEqual(
      [
        "1000:bob:reply",
        "1000:carol:-",
        "1001:alice:-",
        "1001:bob:-",
        "1001:carol:reply",
        "1002:alice:reply",
        "1002:carol:-",
        "1002:dave:-",
        "1003:bob:reply",
        "1003:carol:-",
        "1003:dave:-",
      ].sort(),
    );
  });

  it("never scores context lines, skips system lines, and keeps time running past midnight", async () => {
    const pairs = await tinyPairs();
    expect(pairs.every((p) => p.line >= 1000)).toBe(true);
    const last = pairs.find((p) => p.line === 1003)!;
    expect(last.state.recent.map((m) => m.authorId)).toEqual([
      "alice",
      "bob",
      "carol",
      "alice",
      "dave",
      "bob",
      "alice",
    ]);
    const times = last.state.recent.map((m) => m.ts);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(last.msg.ts - times[0]!).toBe(2 * 60_000 + 2_000);
  });

  it("shows the player as the bot: its turns as assistant, and whom its last turn answered from its own gold only", async () => {
    const pairs = await tinyPairs();
    const asBob = pairs.find((p) => p.line === 1003 && p.player === "bob")!;
    expect(asBob.bot).toEqual({ userId: "bob", name: "bob", aliases: [] });
    expect(asBob.state.recent.filter((m) => m.role === "assistant").map((m) => m.text)).toEqual([
      "alice: plug it in, it mounts itself",
      "check dmesg",
    ]);
    expect(asBob.state.lastBotReplyTo).toEqual(["alice"]);
    expect(asBob.state.lastBotReplyAt).toBe(asBob.state.recent[5]!.ts);
    expect(asBob.msg).toMatchObject({ addressing: "none", mentions: [], text: "thanks bob" });
    expect(asBob.state.recent.at(-1)!.text).toBe("thanks bob");
    // dave's turn at 1001 answered carol, but a bot playing alice must not learn that from gold.
    const asDave = pairs.find((p) => p.line === 1002 && p.player === "dave")!;
    expect(asDave.state.lastBotReplyTo).toEqual(["carol"]);
    const asAlice = pairs.find((p) => p.line === 1002 && p.player === "alice")!;
    expect(asAlice.state.lastBotReplyTo).toEqual(["bob"]);
    expect(asAlice.state.recent.every((m) => m.replyToAuthorId === undefined)).toBe(true);
  });
});
