import { describe, expect, it } from "vitest";
import { readChannel } from "../../lib/decide/channel.ts";
import { CHANNEL_FEATURES, channelFeatures } from "../../lib/decide/channel-pace.ts";
import type { BotIdentity, ConversationState, StoredMessage } from "../../lib/message.ts";

const BOT: BotIdentity = { userId: "UBOT", name: "Parley", aliases: [] };
const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const NAMES: Record<string, string> = { UBOT: "Parley", UALICE: "alice", UBOB: "bob", UCAROL: "carol" };

/** The same conversation, its messages `secondsApart` apart. */
function view(lines: [author: string, text: string][], secondsApart: number) {
  const recent: StoredMessage[] = lines.map(([authorId, text], k) => ({
    id: `m${k}`, role: authorId === "UBOT" ? "assistant" : "user", authorId, authorName: NAMES[authorId]!, text, ts: T0 + k * secondsApart * 1000,
  }));
  const state: ConversationState = { active: true, id: "c", startedAt: T0, lastActivityAt: recent.at(-1)!.ts, answeredThrough: 0, lastBotReplyTo: [], recent };
  const values = channelFeatures(readChannel(state, BOT));
  return Object.fromEntries(CHANNEL_FEATURES.map((name, i) => [name, values[i]!])) as Record<(typeof CHANNEL_FEATURES)[number], number>;
}

const TALK: [string, string][] = [
  ["UALICE", "parley: how do I list open ports?"],
  ["UBOT", "alice: run ss -tlnp"],
  ["UBOB", "carol: did the build finish?"],
  ["UCAROL", "bob: yes"],
  ["UALICE", "and the udp ones?"],
];

describe("channel-relative features", () => {
  it("read a busy channel as faster than a quiet one with the same talk", () => {
    expect(view(TALK, 5).channel_log_pace).toBeGreaterThan(view(TALK, 300).channel_log_pace);
  });

  it("measure the bot's silence in the channel's own time: the same talk slower or faster reads alike", () => {
    expect(view(TALK, 120).channel_bot_silence).toBeCloseTo(view(TALK, 240).channel_bot_silence, 6);
  });

  it("count how often names address people and how often the bot is addressed", () => {
    const named = view(TALK, 30);
    expect(named.channel_name_rate).toBeGreaterThan(0.5);
    expect(named.channel_bot_addressed_rate).toBeGreaterThan(0);
    const unnamed = view(TALK.map(([a, t]) => [a, t.replace(/^\w+: /, "")]), 30);
    expect(unnamed.channel_name_rate).toBe(0);
    expect(unnamed.channel_bot_addressed_rate).toBe(0);
  });

  it("count only the people who spoke in the last few minutes as talking at once", () => {
    expect(view(TALK, 10).channel_log_concurrent).toBeGreaterThan(view(TALK, 600).channel_log_concurrent);
  });
});
