/**
 * @module
 * Telegram's edges (issue #31): a delivery without the exact secret header gets 401 and leaves nothing; a long
 * answer goes out in parts of 4,096 characters, each once, whatever Telegram's flood control refuses between them;
 * a chat the bot leaves is cleaned up alone (the tenant is the chat under its bot); "forget me" takes the person
 * out of what Parley kept of the chat; a 👎 counts only on the bot's own answer (the update does not say whose
 * message it was).
 */
import { Redis } from "@upstash/redis/cloudflare";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { FORGET_CONFIRMATION } from "../../lib/notices.ts";
import { scriptModel } from "../support/model.ts";
import {
  BOT,
  chatMessages,
  deliver,
  newChat,
  newPerson,
  react,
  say,
  setBotStatus,
  TELEGRAM_FAKE_URL,
  telegramRequest,
  telegramSuiteEnv,
} from "../support/telegram.ts";
import { callWorker, eventually, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "tglife";
const env = telegramSuiteEnv(SUITE);
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const prefix = `t-${SUITE}`;

pumpJobsDuringSuite(env, SUITE);

let logs: MockInstance;
beforeEach(() => void (logs = vi.spyOn(console, "log")));
afterEach(() => logs.mockRestore());

async function post(update: Record<string, unknown> | undefined): Promise<void> {
  if (!update) throw new Error("the bot got no update for that");
  expect((await deliver(env, update)).status).toBe(200);
}
const chatKeys = (chat: number) => redis.keys(`${prefix}:*telegram|${BOT.id}:${chat}|*`);
const answers = (chat: number, n: number) =>
  eventually(async () => (await chatMessages(chat)).length >= n && (await chatMessages(chat)), 20_000, `${n} answers`);
/** The decision logged for message `id` of the chat. */
const decision = (chat: number, id: number) =>
  eventually(
    async () =>
      logs.mock.calls
        .map((c) => String(c[0]))
        .filter(
          (line) =>
            line.includes('"event":"decision"') &&
            line.includes(`"channel":"${chat}"`) &&
            line.includes(`"message":"${id}"`),
        )
        .map((line) => JSON.parse(line) as { reason: string })[0],
    5_000,
    "the decision",
  );

describe("a Telegram delivery", () => {
  it("without the exact secret header gets 401, and nothing of it is kept", async () => {
    const alice = newPerson("Alice");
    const chat = await newChat({ privateWith: alice });
    const { update } = await say(chat, alice, "hello?");
    for (const secret of [null, "test-telegram-webhook-secreT", ""]) {
      expect((await callWorker(env, telegramRequest(update, secret))).status).toBe(401);
    }
    expect(await chatKeys(chat)).toEqual([]);
  });
});

describe("a long Telegram answer", () => {
  it("goes out in parts of at most 4,096 characters, each once, though flood control refused the second at first", async () => {
    const erin = newPerson("Erin");
    const chat = await newChat({ privateWith: erin });
    const marker = `long-${chat}`;
    const long = `${"All work and no play makes a long answer. ".repeat(120)}The end.`;
    await scriptModel({ match: marker, reply: long });
    const rule = {
      fault: "ratelimit",
      retryAfter: 1,
      path: "/sendMessage",
      bodyContains: `"chat_id":${chat}`,
      after: 1,
    };
    const res = await fetch(`${TELEGRAM_FAKE_URL}/__fail`, { method: "POST", body: JSON.stringify(rule) });
    expect(res.status).toBe(200);
    await post((await say(chat, erin, `tell me everything ${marker}`)).update);
    const parts = await eventually(
      async () => {
        const sent = await chatMessages(chat);
        return sent.length >= 2 && sent;
      },
      20_000,
      "both parts",
    );
    expect(Math.max(...parts.map((m) => m.text.length))).toBeLessThanOrEqual(4_096);
    // Cut where a word ends: the space between the parts is the only thing not in a message.
    expect(parts.map((m) => m.text).join(" ")).toBe(long);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await chatMessages(chat)).toHaveLength(2);
  });
});

describe("a group the bot leaves", () => {
  it("has its keys deleted, and only its own", async () => {
    const [alice, bob] = [newPerson("Alice"), newPerson("Bob")];
    const [left, stays] = [await newChat({ group: { admin: true } }), await newChat({ group: { admin: true } })];
    await post((await say(left, alice, `@${BOT.username} what is a monad?`)).update);
    await post((await say(stays, bob, `@${BOT.username} what is a functor?`)).update);
    await answers(left, 1);
    await answers(stays, 1);
    expect((await chatKeys(left)).length).toBeGreaterThan(0);
    const before = (await chatKeys(stays)).sort();
    await post(await setBotStatus(left, "left", alice));
    await eventually(async () => (await chatKeys(left)).length === 0, 15_000, "the left chat's keys gone");
    expect((await chatKeys(stays)).sort()).toEqual(before);
  });
});

describe("forget me in a Telegram group", () => {
  it("takes the person's messages out of what Parley kept of the chat", async () => {
    const [alice, bob] = [newPerson("Alice"), newPerson("Bob")];
    const chat = await newChat({ group: { admin: true } });
    await post((await say(chat, alice, `my address is 1 Elm Street ${chat}`)).update);
    await post((await say(chat, bob, `nice weather ${chat}`)).update);
    const kept = () => redis.get<string>(`${prefix}:kept:telegram|${BOT.id}:${chat}|${chat}`);
    expect(await kept()).toContain("1 Elm Street");
    await post((await say(chat, alice, `/forget@${BOT.username}`)).update);
    await eventually(
      async () => (await chatMessages(chat)).some((m) => m.text === FORGET_CONFIRMATION),
      20_000,
      "the confirmation",
    );
    expect(await kept()).not.toContain("1 Elm Street");
    expect(await kept()).toContain(`nice weather ${chat}`);
  });
});

describe("a 👎 in a Telegram group", () => {
  it("quiets the bot toward that person when it is on the bot's answer, and not when it is on someone else's message", async () => {
    const [alice, bob] = [newPerson("Alice"), newPerson("Bob")];
    const chat = await newChat({ group: { admin: true } });
    await post((await say(chat, alice, `@${BOT.username} what is a monad?`)).update);
    const [answer] = await answers(chat, 1);
    const bobsOwn = await say(chat, bob, "I think it is a burrito");
    await post(bobsOwn.update);
    // Alice's 👎 on Bob's message says nothing about the bot: her follow-up is decided as usual.
    await post(await react(chat, bobsOwn.messageId, alice, "👎"));
    const first = await say(chat, alice, "and how would I use one?");
    await post(first.update);
    expect((await decision(chat, first.messageId)).reason).not.toBe("told_not_you");
    // Her 👎 on the bot's answer tells it the answer was not wanted: her next words are not followed up on.
    await post(await react(chat, answer!.message_id, alice, "👎"));
    const second = await say(chat, alice, "and what about lists?");
    await post(second.update);
    expect(await decision(chat, second.messageId)).toMatchObject({ reason: "told_not_you" });
  });
});
