import { describe, expect, it } from "vitest";
import { parseGatewayReaction } from "../../lib/platforms/discord/gateway/reaction.ts";

const BOT = "100000000000000001";
const NOW = Date.UTC(2026, 0, 5, 12, 0, 0);

function reaction(over: Record<string, unknown> = {}) {
  return {
    user_id: "230000000000000001",
    channel_id: "420000000000000001",
    message_id: "500000000000000001",
    guild_id: "320000000000000001",
    message_author_id: BOT,
    member: { nick: null, user: { id: "230000000000000001", username: "alice", global_name: "Alice" } },
    emoji: { id: null, name: "👎" },
    ...over,
  };
}

describe("a Discord MESSAGE_REACTION_ADD", () => {
  it("a 👎 on the bot's message is not-you feedback from that person, in the channel's conversation, never answered", () => {
    const parsed = parseGatewayReaction(reaction(), BOT, NOW);
    expect(parsed).toMatchObject({
      kind: "message",
      message: {
        key: { platform: "discord", tenant: "320000000000000001", channel: "420000000000000001" },
        author: { id: "230000000000000001", name: "Alice", isBot: false },
        text: "",
        ts: NOW,
        noReply: true,
        feedback: "not_you",
      },
    });
  });

  it.each(["👎🏻", "👎🏼", "👎🏽", "👎🏾", "👎🏿"])("a %s (a skin tone) is the same feedback", (name) => {
    expect(parseGatewayReaction(reaction({ emoji: { id: null, name } }), BOT, NOW)).toMatchObject({
      kind: "message",
      message: { feedback: "not_you" },
    });
  });

  it("a 👎 in the bot's DM is feedback in the DM's conversation", () => {
    const { guild_id: _guild, member: _member, ...dm } = reaction();
    expect(parseGatewayReaction(dm, BOT, NOW)).toMatchObject({
      kind: "message",
      message: { key: { tenant: "dm:230000000000000001" }, feedback: "not_you" },
    });
  });

  it("other emoji, custom emoji and reactions on someone else's message need no work", () => {
    expect(parseGatewayReaction(reaction({ emoji: { id: null, name: "👍" } }), BOT, NOW)).toEqual({
      kind: "ignored",
      reason: "reaction_not_feedback",
    });
    expect(parseGatewayReaction(reaction({ emoji: { id: null, name: "👍🏽" } }), BOT, NOW)).toEqual({
      kind: "ignored",
      reason: "reaction_not_feedback",
    });
    expect(parseGatewayReaction(reaction({ emoji: { id: null, name: "👎👎" } }), BOT, NOW)).toEqual({
      kind: "ignored",
      reason: "reaction_not_feedback",
    });
    expect(parseGatewayReaction(reaction({ emoji: { id: "77", name: "👎" } }), BOT, NOW)).toEqual({
      kind: "ignored",
      reason: "reaction_not_feedback",
    });
    expect(parseGatewayReaction(reaction({ message_author_id: "230000000000000002" }), BOT, NOW)).toEqual({
      kind: "ignored",
      reason: "reaction_not_on_bot",
    });
  });

  it("a ✅ or ❌ on the bot's message is that person's answer to a question it may have asked there", () => {
    const answer = (name: string, over: Record<string, unknown> = {}) =>
      parseGatewayReaction(reaction({ emoji: { id: null, name }, ...over }), BOT, NOW);
    const place = { platform: "discord", tenant: "320000000000000001", channel: "420000000000000001" };
    for (const tick of ["✅", "✔️", "✔", "☑️"]) {
      expect(answer(tick)).toEqual({
        kind: "approval",
        answer: { place, messageId: "500000000000000001", userId: "230000000000000001", verdict: "approve" },
      });
    }
    for (const cross of ["❌", "❎"])
      expect(answer(cross)).toMatchObject({ kind: "approval", answer: { verdict: "deny" } });
    expect(answer("✅", { guild_id: undefined })).toMatchObject({
      answer: { place: { tenant: "dm:230000000000000001" } },
    });
    expect(answer("✅", { message_author_id: "230000000000000002" })).toEqual({
      kind: "ignored",
      reason: "reaction_not_on_bot",
    });
    expect(answer("✅", { emoji: { id: "77", name: "✅" } })).toEqual({
      kind: "ignored",
      reason: "reaction_not_feedback",
    });
  });

  it("a malformed event is invalid", () => {
    expect(parseGatewayReaction({ emoji: {} }, BOT, NOW).kind).toBe("invalid");
  });
});
