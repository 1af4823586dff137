import { describe, expect, it } from "vitest";
import { parseGatewayMessage } from "../../lib/platforms/discord/gateway/message.ts";

const bot = { userId: "42", name: "Parley" };
const base = {
  id: "1100000000000000001",
  channel_id: "1200000000000000001",
  guild_id: "1300000000000000001",
  type: 0,
  content: "hello all",
  timestamp: "2025-06-15T12:00:00.000000+00:00",
  author: { id: "1400000000000000001", username: "alice", global_name: "Alice" },
  member: { nick: null, roles: [] },
  mentions: [],
  referenced_message: null,
};

describe("parseGatewayMessage", () => {
  it("turns a plain channel message into a message that addresses nobody, posted without a reply reference", () => {
    const parsed = parseGatewayMessage(base, bot);
    expect(parsed).toEqual({
      kind: "message",
      message: {
        key: { platform: "discord", tenant: base.guild_id, channel: base.channel_id },
        id: base.id,
        author: { id: base.author.id, name: "Alice", isBot: false },
        text: "hello all",
        ts: Date.parse(base.timestamp),
        addressing: "none",
        mentions: [],
        replyTarget: { platform: "discord", kind: "channel", channelId: base.channel_id },
      },
    });
  });

  it("recognises a mention of the bot, makes it readable, and answers as a reply to it", () => {
    const parsed = parseGatewayMessage(
      {
        ...base,
        content: "<@42> what about <@!77>?",
        mentions: [
          { id: "42", username: "parley" },
          { id: "77", username: "bob" },
        ],
      },
      bot,
    );
    expect(parsed.kind === "message" && parsed.message).toMatchObject({
      addressing: "mention",
      text: "@Parley what about @bob?",
      mentions: ["42", "77"],
      replyTarget: { replyToMessageId: base.id },
    });
  });

  it("recognises a mention of the bot's managed role as a mention of the bot, and shows it as the bot's name", () => {
    const roleMention = { ...base, content: "<@&77> can you help? <@&88> too", mention_roles: ["77", "88"] };
    const parsed = parseGatewayMessage(roleMention, { ...bot, roleId: "77" });
    expect(parsed.kind === "message" && parsed.message).toMatchObject({
      addressing: "mention",
      text: "@Parley can you help? <@&88> too",
      mentions: ["42"],
      replyTarget: { replyToMessageId: base.id },
    });
  });

  it("does not take another role's mention, or a role mention in a guild whose bot role is unknown, for the bot", () => {
    const roleMention = { ...base, content: "<@&88> anyone?", mention_roles: ["88"] };
    for (const who of [{ ...bot, roleId: "77" }, bot]) {
      const parsed = parseGatewayMessage(roleMention, who);
      expect(parsed.kind === "message" && [parsed.message.addressing, parsed.message.mentions]).toEqual(["none", []]);
    }
  });

  it("recognises a reply to the bot", () => {
    const parsed = parseGatewayMessage(
      { ...base, type: 19, referenced_message: { id: "9", author: { id: "42", username: "parley", bot: true } } },
      bot,
    );
    expect(parsed.kind === "message" && parsed.message).toMatchObject({
      addressing: "reply_to_bot",
      replyToAuthorId: "42",
    });
  });

  it("treats a message outside a guild as a DM, keyed by the person", () => {
    const { guild_id: _guild, ...dm } = base;
    const parsed = parseGatewayMessage(dm, bot);
    expect(parsed.kind === "message" && parsed.message).toMatchObject({
      addressing: "dm",
      key: { tenant: `dm:${base.author.id}` },
    });
  });

  it("ignores the bot's own messages, system messages and messages without text", () => {
    expect(parseGatewayMessage({ ...base, author: { id: "42", username: "parley", bot: true } }, bot)).toEqual({
      kind: "ignored",
      reason: "own_message",
    });
    expect(parseGatewayMessage({ ...base, type: 7 }, bot)).toEqual({ kind: "ignored", reason: "message_type:7" });
    expect(parseGatewayMessage({ ...base, content: "" }, bot)).toEqual({ kind: "ignored", reason: "no_text" });
  });

  it("marks other bots and webhooks as bots", () => {
    const parsed = parseGatewayMessage({ ...base, webhook_id: "55" }, bot);
    expect(parsed.kind === "message" && parsed.message.author.isBot).toBe(true);
  });

  it("names the message a reply answers in its own channel, and never a forwarded message or one from another channel", () => {
    const replied = { id: "1100000000000000000", author: { id: "1400000000000000002", username: "bob" } };
    const reply = { ...base, type: 19, referenced_message: replied };
    const replyToId = (message: object) => {
      const parsed = parseGatewayMessage(message, bot);
      return parsed.kind === "message" ? parsed.message.replyToId : "not a message";
    };
    expect(
      replyToId({
        ...reply,
        message_reference: { type: 0, message_id: replied.id, channel_id: base.channel_id, guild_id: base.guild_id },
      }),
    ).toBe(replied.id);
    expect(replyToId({ ...reply, message_reference: { message_id: replied.id } })).toBe(replied.id);
    expect(
      replyToId({
        ...reply,
        message_reference: { type: 0, message_id: replied.id, channel_id: "1200000000000000009" },
      }),
    ).toBeUndefined();
    expect(
      replyToId({ ...base, message_reference: { type: 1, message_id: replied.id, channel_id: "1200000000000000009" } }),
    ).toBeUndefined();
  });
});
