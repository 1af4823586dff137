/**
 * @module
 * Telegram end to end on the local stack (issue #31): a group conversation (privacy mode: only what is meant for
 * the bot arrives), a forum topic as a conversation of its own, a private chat as a DM, answers streamed (a draft
 * in a private chat, an edited reply in a group) with "typing…" as the working sign, and the talk before the bot
 * was called seen from what Parley kept of the group.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { ConversationStore } from "../../lib/conversation/store.ts";
import type { ConversationKey } from "../../lib/message.ts";
import { modelRequests } from "../support/model.ts";
import {
  BOT,
  botCalls,
  chatMessages,
  deliver,
  newChat,
  shownText,
  newPerson,
  newTopic,
  say,
  telegramSuiteEnv,
} from "../support/telegram.ts";
import { eventually, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "tgconv";
const env = telegramSuiteEnv(SUITE, { STREAMING: "true", SHOW_WORKING: "true" });
const store = new ConversationStore(
  new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) }),
  {
    prefix: `t-${SUITE}`,
    ttlSeconds: () => 120,
    maxMessages: 200,
  },
);
/** A few seconds of answer, long enough to be seen growing. */
const PACE = "[[local-model tokens=160 tps=60 first_ms=150]]";

pumpJobsDuringSuite(env, SUITE);

const place = (chatId: number, thread?: number): ConversationKey => ({
  platform: "telegram",
  tenant: `${BOT.id}:${chatId}`,
  channel: String(chatId),
  ...(thread !== undefined ? { thread: String(thread) } : {}),
});

async function post(update: Record<string, unknown> | undefined): Promise<void> {
  if (!update) throw new Error("the bot got no update for that message");
  expect((await deliver(env, update)).status).toBe(200);
}

/** The bot's answer as the conversation recorded it, once recorded. */
const recorded = (key: ConversationKey) =>
  eventually(
    async () => (await store.load(key))?.recent.find((m) => m.role === "assistant"),
    20_000,
    "the answer recorded",
  );

describe("a Telegram group", () => {
  it("answers an @mention as a reply, streamed by editing it, with typing first, and sees the talk before it", async () => {
    const [alice, bob, carol] = [newPerson("Alice"), newPerson("Bob"), newPerson("Carol")];
    // Privacy mode off: the bot is an admin, so it hears the talk before it is called.
    const chat = await newChat({ group: { admin: true } });
    const marker = `deploy-${chat}`;
    await post((await say(chat, alice, `the migrations step timed out on the orders table lock ${marker}`)).update);
    await post((await say(chat, bob, "an analytics query held it, roll back to 4.12 or kill the query?")).update);
    const question = await say(chat, carol, `@${BOT.username} what do you think, should we roll back? ${PACE}`);
    await post(question.update);
    const answer = await recorded(place(chat));
    const [message, ...more] = await chatMessages(chat);
    expect(more).toEqual([]);
    expect(message).toMatchObject({ reply_to: question.messageId, text: shownText(answer.text) });
    expect(message!.revisions.map((r) => r.method)).toEqual(expect.arrayContaining(["sendMessage", "editMessageText"]));
    const calls = await botCalls(chat);
    expect(calls[0]).toMatchObject({ route: "sendChatAction", action: "typing" });
    // The prompt saw Alice's and Bob's messages from before the bot was called.
    const [prompt] = await modelRequests(`should we roll back? ${PACE}`);
    const said = JSON.stringify(prompt!.messages);
    expect(said).toContain(marker);
    expect(said).toContain("analytics query held it");
  });

  it("in privacy mode hears only what is meant for it: a mention, a reply to it, a command", async () => {
    const [alice, bob] = [newPerson("Alice"), newPerson("Bob")];
    const chat = await newChat({ group: {} });
    expect((await say(chat, alice, "nobody asked the bot this")).update).toBeUndefined();
    await post((await say(chat, bob, `/ask@${BOT.username} what is a monad?`)).update);
    const first = await recorded(place(chat));
    const answerId = Number(first.id);
    const reply = await say(chat, alice, "can you say that more simply?", { replyTo: answerId });
    expect(reply.update).toBeDefined();
    await post(reply.update);
    await eventually(async () => (await chatMessages(chat)).length >= 2, 20_000, "the second answer");
    expect((await chatMessages(chat))[1]).toMatchObject({ reply_to: reply.messageId });
  });
});

describe("a Telegram forum", () => {
  it("keeps each topic a conversation of its own, answered in its topic", async () => {
    const [alice, bob] = [newPerson("Alice"), newPerson("Bob")];
    const chat = await newChat({ group: { forum: true, admin: true } });
    const releases = await newTopic(chat, "Releases", alice);
    const lunch = await newTopic(chat, "Lunch", bob);
    await post((await say(chat, bob, `we ship on friday ${chat}`, { topic: releases })).update);
    await post((await say(chat, alice, `@${BOT.username} when do we ship?`, { topic: releases })).update);
    await post((await say(chat, bob, `@${BOT.username} pizza or sushi?`, { topic: lunch })).update);
    await recorded(place(chat, releases));
    await recorded(place(chat, lunch));
    const answers = await chatMessages(chat);
    expect(answers.map((m) => m.thread).sort()).toEqual([releases, lunch].sort());
    expect(await store.load(place(chat))).toBeNull();
    const [lunchPrompt] = await modelRequests("pizza or sushi?");
    expect(JSON.stringify(lunchPrompt!.messages)).not.toContain(`we ship on friday ${chat}`);
  });
});

describe("a Telegram private chat", () => {
  it("answers every message as a DM, streamed as a draft and then sent whole", async () => {
    const dana = newPerson("Dana");
    const chat = await newChat({ privateWith: dana });
    await post((await say(chat, dana, `what is a good name for a cat? ${PACE}`)).update);
    const answer = await recorded(place(chat));
    const [message, ...more] = await chatMessages(chat);
    expect(more).toEqual([]);
    expect(message).toMatchObject({ text: shownText(answer.text) });
    expect(message!.reply_to).toBeUndefined();
    const drafts = await botCalls(chat, "sendMessageDraft");
    expect(drafts.length).toBeGreaterThan(1);
    expect(answer.text.startsWith(String(drafts[0]!.text))).toBe(true);
    expect((await botCalls(chat))[0]).toMatchObject({ route: "sendChatAction", action: "typing" });
  });
});
