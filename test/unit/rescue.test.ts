import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDiscordFake, type RunningDiscordFake } from "../../dev/fakes/discord.ts";
import type { Decision } from "../../lib/decide/index.ts";
import { answeredAfter, isOpenQuestion } from "../../lib/rescue/questions.ts";
import type { BotIdentity, StoredMessage } from "../../lib/message.ts";
import type { ReplyContext } from "../../lib/platforms/adapter.ts";
import { readDiscordHistory } from "../../lib/platforms/discord/history.ts";
import { discordRescue } from "../../lib/platforms/discord/rescue.ts";
import type { DiscordSettings } from "../../lib/platforms/discord/settings.ts";

const BOT: BotIdentity = { userId: "UBOT", name: "Parley", aliases: [] };
const NOBODY: Decision = { respond: "no", reason: "no_trigger" };
const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const ask = (text: string, over: Record<string, unknown> = {}) => ({
  author: { id: "UASK", name: "ann", isBot: false },
  text,
  ts: T0,
  addressing: "none" as const,
  mentions: [],
  ...over,
});
const line = (authorId: string, text: string, seconds: number, over: Partial<StoredMessage> = {}): StoredMessage => ({
  id: `${authorId}-${seconds}`,
  role: "user",
  authorId,
  authorName: authorId.toLowerCase().slice(1),
  text,
  ts: T0 + seconds * 1000,
  ...over,
});

describe("a question addressed to nobody", () => {
  it("is a person's question the decider left to nobody", () => {
    expect(isOpenQuestion(ask("does anyone know a fast mirror for the updates?"), NOBODY)).toBe(true);
    expect(isOpenQuestion(ask("how do I keep the old driver after upgrading? it broke twice"), NOBODY)).toBe(true);
    expect(isOpenQuestion(ask("why?"), NOBODY)).toBe(false);
    expect(isOpenQuestion(ask("the build is red again"), NOBODY)).toBe(false);
    expect(isOpenQuestion(ask("Carol, are you coming to lunch today?"), NOBODY)).toBe(false);
    expect(isOpenQuestion(ask("is the mirror down for you too?", { mentions: ["UBOB"] }), NOBODY)).toBe(false);
    expect(isOpenQuestion(ask("is the mirror down for you too?", { replyToAuthorId: "UBOB" }), NOBODY)).toBe(false);
    expect(isOpenQuestion(ask("is the mirror down for you too?"), { respond: "no", reason: "addressed_other" })).toBe(
      false,
    );
    expect(isOpenQuestion(ask("is the mirror down for you too?"), { respond: "yes", reason: "direct_mention" })).toBe(
      false,
    );
  });
});

describe("whether anyone answered it", () => {
  const question = line("UASK", "how do I change the keyboard layout on the login screen?", 0);
  const talk = (later: StoredMessage[], threadReplies: StoredMessage[] = []) => ({
    before: [],
    question,
    later,
    threadReplies,
  });

  it("a reply in its thread, a reply to its author, or a message the model links to the author is an answer", () => {
    expect(answeredAfter(talk([], [line("UHELP", "Settings, then Region", 30)]), BOT, 50)).toBe(true);
    expect(
      answeredAfter(talk([line("UHELP", "Settings, then Region", 30, { replyToAuthorId: "UASK" })]), BOT, 50),
    ).toBe(true);
    expect(answeredAfter(talk([line("UHELP", "ask: Settings, then Region and Language", 30)]), BOT, 50)).toBe(true);
  });

  it("the asker's own words, or talk between others, are not", () => {
    expect(answeredAfter(talk([], [line("UASK", "anyone?", 30)]), BOT, 50)).toBe(false);
    expect(
      answeredAfter(
        talk([line("UASK", "anyone?", 30), line("UBOB", "carol: lunch at noon?", 40), line("UCAROL", "bob: sure", 50)]),
        BOT,
        50,
      ),
    ).toBe(false);
  });
});

describe("Discord's side of a rescue", () => {
  let discord: RunningDiscordFake;
  beforeAll(async () => {
    discord = await startDiscordFake({ port: 0 });
  });
  afterAll(async () => {
    await discord.close();
  });

  const ctx = () =>
    ({
      config: { DISCORD_API_BASE_URL: discord.url },
      token: async () => "bot-token",
      fetch: (i: RequestInfo | URL, init?: RequestInit) => fetch(i, init),
      callBudget: async () => true,
    }) as unknown as ReplyContext<DiscordSettings>;
  const post = async (channel: string, authorId: string, content: string, at: number) => {
    const res = await fetch(`${discord.url.replace(/\/api\/v10$/, "")}/__messages`, {
      method: "POST",
      body: JSON.stringify({
        channel_id: channel,
        content,
        author: { id: authorId, username: `u${authorId}` },
        timestamp: new Date(at).toISOString(),
      }),
    });
    return ((await res.json()) as { id: string }).id;
  };

  it("answers with a reply to the question, reads it and what followed it in order, and knows a deleted one", async () => {
    const channel = "510000000000000001";
    const askedAt = Date.now() - 60_000;
    const id = await post(channel, "210000000000000001", "does anyone know a fast mirror?", askedAt);
    await post(channel, "210000000000000002", "try the one at the university", askedAt + 10_000);
    await post(channel, "210000000000000003", "or the official one", askedAt + 20_000);
    const key = { platform: "discord" as const, tenant: "310000000000000001", channel };
    const target = { platform: "discord" as const, kind: "channel" as const, channelId: channel };
    expect(discordRescue.under({ key, id, target })).toEqual({ key, target: { ...target, replyToMessageId: id } });
    const readOn = (from: string) =>
      readDiscordHistory(ctx(), {
        place: key,
        after: { id: from, ts: askedAt },
        triggerListed: true,
        limit: 200,
        bot: { userId: "100000000000000009", name: "Parley", aliases: [] },
      });
    const page = await readOn(id);
    expect("messages" in page && page.messages.map((m) => [m.id === id, m.text])).toEqual([
      [true, "does anyone know a fast mirror?"],
      [false, "try the one at the university"],
      [false, "or the official one"],
    ]);
    const deleted = "999999999999999999";
    const without = await readOn(deleted);
    expect("messages" in without && without.messages.some((m) => m.id === deleted)).toBe(false);
  });
});
