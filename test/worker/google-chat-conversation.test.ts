/**
 * @module
 * Google Chat end to end on the local stack (issue #40): a mention in a space answered once in the question's
 * thread, streamed by editing the posted message; a follow-up in that thread, as Chat delivers one (it mentions the
 * app again: in a space Chat sends the app nothing else), answered once in the same thread and conversation; a DM
 * answered without a mention; a slash command; and an app built as a Workspace add-on, its events in the add-on
 * framing and its token an ID token for the endpoint URL.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { ConversationStore } from "../../lib/conversation/store.ts";
import type { ConversationKey } from "../../lib/message.ts";
import { chatText } from "../../lib/platforms/google-chat/text.ts";
import {
  deliver,
  ENDPOINT_URL,
  googleChatSuiteEnv,
  newPerson,
  newSpace,
  place,
  say,
  spaceMessages,
} from "../support/google-chat.ts";
import { modelRequests } from "../support/model.ts";
import { eventually, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "gchatconv";
const env = googleChatSuiteEnv(SUITE, { STREAMING: "true" });
const ADD_ON_SUITE = "gchataddon";
const addOnEnv = googleChatSuiteEnv(ADD_ON_SUITE, { GOOGLE_CHAT_AUDIENCE: ENDPOINT_URL });
const storeOf = (suite: string, testEnv: Record<string, unknown>) =>
  new ConversationStore(
    new Redis({ url: String(testEnv.UPSTASH_REDIS_REST_URL), token: String(testEnv.UPSTASH_REDIS_REST_TOKEN) }),
    { prefix: `t-${suite}`, ttlSeconds: () => 120, maxMessages: 200 },
  );
const store = storeOf(SUITE, env);
/** A few seconds of answer, long enough to be seen growing. */
const PACE = "[[local-model tokens=160 tps=50 first_ms=150]]";

pumpJobsDuringSuite(env, SUITE);
pumpJobsDuringSuite(addOnEnv, ADD_ON_SUITE);

/** The bot's answers as the conversation recorded them, once there are `count`. */
const answers = (key: ConversationKey, count = 1, s = store) =>
  eventually(
    async () => {
      const found = (await s.load(key))?.recent.filter((m) => m.role === "assistant") ?? [];
      return found.length >= count ? found : undefined;
    },
    20_000,
    `${count} answer(s) recorded`,
  );

describe("a Google Chat space", () => {
  it("answers a mention once in the question's thread, streamed by editing it, the mention read as its name", async () => {
    const alice = newPerson("Alice");
    const space = await newSpace("SPACE");
    const question = await say(space, alice, `what should we name the release? ${PACE}`, { mention: true });
    const res = await deliver(env, question.delivery);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    const [answer] = await answers(place(space, question.thread));
    const [message, ...more] = await spaceMessages(space);
    expect(more).toEqual([]);
    expect(message).toMatchObject({ thread: question.thread, threadReply: true, text: chatText(answer!.text) });
    expect(message!.revisions.map((r) => r.method)).toEqual(expect.arrayContaining(["create", "patch"]));
    const [prompt] = await modelRequests(`what should we name the release? ${PACE}`);
    const said = JSON.stringify(prompt!.messages);
    expect(said).toContain("@Parley what should we name the release?");
    expect(said).not.toContain("@Local Helper");
  });

  it("answers a follow-up in the same thread once, in that thread and conversation; a message without a mention never arrives", async () => {
    const [alice, bob] = [newPerson("Alice"), newPerson("Bob")];
    const space = await newSpace("SPACE");
    const first = await say(space, alice, "which region is the database in?", { mention: true });
    await deliver(env, first.delivery);
    await answers(place(space, first.thread));
    expect((await say(space, bob, "not for the bot", { thread: first.thread })).delivery).toBeNull();
    const follow = await say(space, bob, "and the replica?", { mention: true, thread: first.thread });
    expect(follow.thread).toBe(first.thread);
    await deliver(env, follow.delivery);
    await answers(place(space, first.thread), 2);
    const posted = await spaceMessages(space);
    expect(posted).toHaveLength(2);
    expect(posted.every((m) => m.thread === first.thread)).toBe(true);
    expect(await store.load(place(space))).toBeNull();
  });

  it("answers /ask with its question", async () => {
    const carol = newPerson("Carol");
    const space = await newSpace("SPACE");
    const asked = await say(space, carol, "what is a monad?", { command: { id: 1, name: "/ask" } });
    await deliver(env, asked.delivery);
    const [answer] = await answers(place(space, asked.thread));
    expect(answer).toBeDefined();
    expect(await modelRequests("what is a monad?")).not.toEqual([]);
    expect(await spaceMessages(space)).toHaveLength(1);
  });
});

describe("a Google Chat DM", () => {
  it("answers every message without a mention, once", async () => {
    const dave = newPerson("Dave");
    const dm = await newSpace("DIRECT_MESSAGE");
    const hello = await say(dm, dave, "hi, can you help me plan the week?");
    expect(hello.delivery).not.toBeNull();
    await deliver(env, hello.delivery);
    await answers(place(dm));
    expect(await spaceMessages(dm)).toHaveLength(1);
  });
});

describe("a Google Chat app built as a Workspace add-on", () => {
  it("reads the add-on's event objects, its ID token made for the endpoint URL, and answers once", async () => {
    const erin = newPerson("Erin");
    const dm = await newSpace("DIRECT_MESSAGE");
    const hello = await say(dm, erin, "what is on the roadmap?", { framing: "add-on", audience: ENDPOINT_URL });
    expect(hello.delivery?.body).toHaveProperty("chat.messagePayload");
    expect((await deliver(addOnEnv, hello.delivery)).status).toBe(200);
    await answers(place(dm), 1, storeOf(ADD_ON_SUITE, addOnEnv));
    expect(await spaceMessages(dm)).toHaveLength(1);
  });
});
