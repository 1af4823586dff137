/**
 * @module
 * Telegram updates → what the core gets (lib/platforms/telegram/parse.ts), over the fixtures of
 * test/fixtures/platforms/telegram (real captures where published, the rest built from the Bot API reference,
 * each with its source), and how a message addresses the bot: by Telegram's own entities, never by guessing.
 */
import { describe, expect, it } from "vitest";
import fixtures from "../fixtures/platforms/telegram/updates.json" with { type: "json" };
import { parseTelegramUpdate } from "../../lib/platforms/telegram/parse.ts";
import { withoutMentions } from "../../lib/platforms/telegram/format.ts";
import { verifyTelegramSecret } from "../../lib/platforms/telegram/verify.ts";

const bot = { id: String(fixtures.bot.id), username: fixtures.bot.username, name: "Parley" };
const NOW = 1_737_280_000_500;

describe.each(fixtures.cases.map((c) => [c.name, c] as const))("the update: %s", (_name, c) => {
  it(`parses as ${c.expect.kind}`, () => {
    expect(fixtures.sources).toHaveProperty(c.source);
    const parsed = parseTelegramUpdate(c.update, bot, NOW);
    expect(parsed.kind).toBe(c.expect.kind);
    const e = c.expect as Record<string, unknown>;
    if (parsed.kind === "ignored") expect(parsed.reason).toBe(e.reason);
    if (parsed.kind === "removed") expect(parsed.tenants).toEqual(e.tenants);
    if (parsed.kind === "control") {
      const { place, person, messageRef, controlId, reply, named } = parsed.press;
      expect({ channel: place.channel, person, messageRef, controlId, ...(named ? { named } : {}) }).toEqual({
        ...e,
        kind: undefined,
      });
      expect(reply).toBe((c.update as { callback_query: { id: string } }).callback_query.id);
    }
    if (parsed.kind !== "message") return;
    const m = parsed.message;
    const target = m.replyTarget as Record<string, unknown>;
    if (e.addressing) expect(m.addressing).toBe(e.addressing);
    if (e.text) expect(m.text).toBe(e.text);
    if (e.id) expect(m.id).toBe(e.id);
    if (e.author) expect(m.author.name).toBe(e.author);
    if (e.channel) expect(m.key.channel).toBe(e.channel);
    if (e.tenant) expect(m.key.tenant).toBe(e.tenant);
    if (e.thread) expect(m.key.thread).toBe(e.thread);
    if (e.threadId) expect(target.threadId).toBe(e.threadId);
    if (e.replyTo) expect(target.replyTo).toBe(e.replyTo);
    if (e.visibility) expect(m.visibility).toBe(e.visibility);
    if (e.replyToId) expect(m.replyToId).toBe(e.replyToId);
    if (e.feedback) expect(m).toMatchObject({ feedback: e.feedback, noReply: true });
    // The topic's opening is what every message of a topic "replies" to: no reply to anyone.
    if (e.noReplyTo) expect(m.replyToAuthorId).toBeUndefined();
  });
});

const group = { id: -100123, type: "supergroup", title: "G" };
const person = { id: 42, is_bot: false, first_name: "Alice" };
const message = (text: string, extra: Record<string, unknown> = {}) => ({
  update_id: 1,
  message: { message_id: 7, from: person, chat: group, date: 1_737_280_000, text, ...extra },
});
const entity = (type: string, text: string, token: string) => ({
  type,
  offset: text.indexOf(token),
  length: token.length,
});

describe("how a Telegram message addresses the bot", () => {
  it("reads `/ask@<bot>` as a command with its question, and another bot's command as addressed to someone else", () => {
    const ours = "/ask@meteorcorp_bot is it safe?";
    const theirs = "/ask@otherbot is it safe?";
    expect(
      parseTelegramUpdate(message(ours, { entities: [entity("bot_command", ours, "/ask@meteorcorp_bot")] }), bot, NOW),
    ).toMatchObject({ message: { addressing: "command", text: "is it safe?" } });
    expect(
      parseTelegramUpdate(message(theirs, { entities: [entity("bot_command", theirs, "/ask@otherbot")] }), bot, NOW),
    ).toMatchObject({ message: { addressing: "none", mentions: ["@otherbot"] } });
  });

  it("takes /forget as the person's request to be forgotten", () => {
    const text = "/forget@meteorcorp_bot";
    expect(
      parseTelegramUpdate(message(text, { entities: [entity("bot_command", text, text)] }), bot, NOW),
    ).toMatchObject({ message: { addressing: "command", text: "forget me" } });
  });

  it("reads a mention by id (text_mention) as a mention, and a reply between people as addressed to them", () => {
    const text = "Parley what now?";
    const byId = message(text, {
      entities: [
        {
          type: "text_mention",
          offset: 0,
          length: 6,
          user: { id: fixtures.bot.id, is_bot: true, first_name: "Parley" },
        },
      ],
    });
    expect(parseTelegramUpdate(byId, bot, NOW)).toMatchObject({
      message: { addressing: "mention", mentions: [bot.id] },
    });
    const reply = message("agreed", {
      reply_to_message: {
        message_id: 6,
        from: { id: 43, is_bot: false, first_name: "Bob" },
        chat: group,
        date: 1_737_279_990,
        text: "ship it",
      },
    });
    expect(parseTelegramUpdate(reply, bot, NOW)).toMatchObject({
      message: { addressing: "none", replyToAuthorId: "43", replyToId: "6" },
    });
  });

  it("never counts a bare @name in the text without Telegram's entity, and ignores the bot's own messages", () => {
    expect(parseTelegramUpdate(message("@meteorcorp_bot hi"), bot, NOW)).toMatchObject({
      message: { addressing: "none" },
    });
    const own = {
      update_id: 1,
      message: {
        message_id: 8,
        from: { id: fixtures.bot.id, is_bot: true, first_name: "Bot" },
        chat: group,
        date: 1,
        text: "hi",
      },
    };
    expect(parseTelegramUpdate(own, bot, NOW)).toEqual({ kind: "ignored", reason: "own_message" });
  });

  it("orders a burst written in one second by arrival within that second", () => {
    const at = (now: number) =>
      (parseTelegramUpdate(message("hi"), bot, now) as { message: { ts: number } }).message.ts;
    expect(at(1_737_280_000_250)).toBe(1_737_280_000_250);
    expect(at(1_737_280_009_000)).toBe(1_737_280_000_999);
  });

  it("calls a body that is not an update invalid, naming the field and never its value", () => {
    const parsed = parseTelegramUpdate(
      { update_id: 1, message: { message_id: 1, chat: group, date: 1, text: "secret words" } },
      bot,
      NOW,
    );
    expect(parsed).toEqual({ kind: "invalid", issues: "message.from: missing" });
    expect(parseTelegramUpdate({ message: {} }, bot, NOW)).toMatchObject({ kind: "invalid" });
  });
});

describe("the bot's own text", () => {
  it("pings no one: an @name becomes a lookalike of the same length, an email address stays", () => {
    const text = "ask @alice or mail a@b.example";
    expect(withoutMentions(text)).toBe("ask ＠alice or mail a@b.example");
    expect(withoutMentions(text)).toHaveLength(text.length);
  });
});

describe("the secret header", () => {
  it("is accepted only exactly", () => {
    expect(verifyTelegramSecret("s3cret", "s3cret")).toEqual({ ok: true });
    expect(verifyTelegramSecret("s3cret", "s3creT")).toEqual({ ok: false, reason: "bad_secret" });
    expect(verifyTelegramSecret("s3cret", "s3cret ")).toEqual({ ok: false, reason: "bad_secret" });
    expect(verifyTelegramSecret("s3cret", null)).toEqual({ ok: false, reason: "missing_header" });
  });
});
