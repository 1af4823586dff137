/**
 * @module
 * Microsoft Teams end to end on the local stack (issue #39): a channel @mention answered once in its reply chain,
 * streamed by replacing the posted message, the mention read as the bot's name; a follow-up in the reply chain; a
 * channel message without a mention (the app with resource-specific consent gets it) recorded but not answered; a
 * group chat's mention and the follow-up the decider takes answered once each, its chatter not; a 1:1 message
 * answered without a mention; and a 429 from the Bot Connector waited out as its Retry-After says.
 */
import { describe, expect, it } from "vitest";
import { teamsMarkdown } from "../../lib/platforms/teams/format.ts";
import { modelRequests } from "../support/model.ts";
import {
  botMessages,
  deliver,
  newConversation,
  newPerson,
  place,
  recordedAnswers,
  say,
  teamsControl,
  teamsSuiteEnv,
} from "../support/teams.ts";
import { pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "teamsconv";
const env = teamsSuiteEnv(SUITE, { STREAMING: "true", BACKFILL_MESSAGES: "30" });
const answers = recordedAnswers(env, SUITE);
/** A few seconds of answer, long enough to be seen growing. */
const PACE = "[[local-model tokens=160 tps=50 first_ms=150]]";

pumpJobsDuringSuite(env, SUITE);

describe("a Teams channel", () => {
  it("answers an @mention once in its reply chain, streamed by edits, the mention read as the bot's name", async () => {
    const alice = newPerson("Alice");
    const channel = await newConversation("channel");
    const question = await say(channel, alice, `what should we call the release? ${PACE}`, { mention: true });
    const res = await deliver(env, question.delivery);
    expect(res.status).toBe(200);
    const [answer] = await answers(place(channel, question.root));
    const [message, ...more] = await botMessages(channel);
    expect(more).toEqual([]);
    expect(message).toMatchObject({ root: question.id, replyToId: question.id, text: teamsMarkdown(answer!.text) });
    expect(message!.revisions.map((r) => r.method)).toEqual(expect.arrayContaining(["post", "put"]));
    expect(message!.revisions.every((r) => r.textFormat === "markdown")).toBe(true);
    const [prompt] = await modelRequests(`what should we call the release? ${PACE}`);
    const said = JSON.stringify(prompt!.messages);
    expect(said).toContain("@Parley what should we call the release?");
    expect(said).not.toContain("<at>");
  });

  it("answers a follow-up @mention in the same reply chain once, in that chain", async () => {
    const [alice, bob] = [newPerson("Alice"), newPerson("Bob")];
    const channel = await newConversation("channel");
    const first = await say(channel, alice, "which region is the database in?", { mention: true });
    await deliver(env, first.delivery);
    await answers(place(channel, first.root));
    const follow = await say(channel, bob, "and the replica?", { mention: true, thread: first.root });
    expect(follow.root).toBe(first.root);
    await deliver(env, follow.delivery);
    await answers(place(channel, first.root), 2);
    const posted = await botMessages(channel);
    expect(posted).toHaveLength(2);
    expect(posted.every((m) => m.root === first.root)).toBe(true);
  });

  it("records a message without a mention (delivered by resource-specific consent) and does not answer it", async () => {
    const carol = newPerson("Carol");
    const channel = await newConversation("channel");
    const chatter = await say(channel, carol, "lunch at noon, anyone?", { rsc: true });
    expect((await deliver(env, chatter.delivery)).status).toBe(200);
    // Time for a job to have run, had one been queued.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await botMessages(channel)).toEqual([]);
    expect(await modelRequests("lunch at noon, anyone?")).toEqual([]);
  });

  it("gets nothing from Teams for a message without a mention when the app has no consent", async () => {
    const channel = await newConversation("channel");
    expect((await say(channel, newPerson("Dan"), "not for the bot")).delivery).toBeNull();
  });
});

describe("a Teams group chat", () => {
  it("answers an @mention once, in the chat, and a follow-up without a mention that the decider takes", async () => {
    const [frank, grace] = [newPerson("Frank"), newPerson("Grace")];
    const chat = await newConversation("groupChat");
    const question = await say(chat, frank, "what time is the deploy window today?", { mention: true });
    await deliver(env, question.delivery);
    await answers(place(chat));
    const [first] = await botMessages(chat);
    expect(first).toMatchObject({ replyToId: question.id });
    expect(first!.root).toBeUndefined();
    // With resource-specific consent the follow-up arrives without a mention; the conversation is attentive.
    const follow = await say(chat, frank, "and who is on call for it?", { rsc: true });
    await deliver(env, follow.delivery);
    await answers(place(chat), 2);
    expect(await botMessages(chat)).toHaveLength(2);
    const chatter = await say(chat, grace, "brb, coffee", { rsc: true });
    await deliver(env, chatter.delivery);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await botMessages(chat)).toHaveLength(2);
  });
});

describe("a Teams 1:1 chat", () => {
  it("answers a message without a mention, once", async () => {
    const dave = newPerson("Dave");
    const chat = await newConversation("personal");
    const hello = await say(chat, dave, "can you help me plan the week?");
    expect((await deliver(env, hello.delivery)).status).toBe(200);
    await answers(place(chat));
    expect(await botMessages(chat)).toHaveLength(1);
  });

  it("waits out a 429 as long as its Retry-After says, then posts the answer once", async () => {
    const erin = newPerson("Erin");
    const chat = await newConversation("personal");
    await teamsControl("/__fail", {
      fault: "ratelimit",
      path: "/send activity",
      bodyContains: chat,
      retryAfter: 2,
      times: 1,
    });
    const hello = await say(chat, erin, "what is on the roadmap?");
    await deliver(env, hello.delivery);
    await answers(place(chat));
    const [fault] = await teamsControl<{ at: number }[]>(
      `/__faults?fault=ratelimit&conversation=${encodeURIComponent(chat)}`,
    );
    const [message, ...more] = await botMessages(chat);
    expect(more).toEqual([]);
    expect(fault).toBeDefined();
    // In a 1:1 chat the answer streams: the refused post is the final message that ends the stream.
    const ended = message!.revisions.find((r) => r.method === "final");
    expect(ended!.at - fault!.at).toBeGreaterThanOrEqual(1_900);
  });
});
