import { Redis } from "@upstash/redis/cloudflare";
import { env as envBindings } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DISCORD_FAKE_BOT } from "../../dev/fakes/discord.ts";
import type { GatewayConnection } from "../../lib/platforms/discord/gateway/connection.ts";
import { controlGateway, discordCalls, gatewayState, postThroughGateway } from "../support/discord.ts";
import { scriptFault } from "../support/fault-control.ts";
import { readyGateway } from "../support/gateway-storage.ts";
import { dataBlockRecords, modelRequests, scriptModel, turnRecords } from "../support/model.ts";
import { qstashLaneUrl } from "../support/qstash-clock.ts";
import { eventually, settle, startJobPump, suiteEnv, type JobPump } from "../support/worker.ts";
import { discordAttachment } from "../support/files.ts";

const SUITE = "discordgw";
/** Tells the answer's prompt apart from the judge's and other model calls that quote the same messages. */
const PERSONA = "You are Parley, answering in a Discord test channel.";
// The judge is on: a follow-up from someone the bot has not talked to is the learned tier's unsure case, and the
// local model's judge says YES to a question.
const env = suiteEnv(SUITE, {
  DISCORD_BOT_TOKEN: "test-discord-bot-token",
  BACKFILL_MESSAGES: "30",
  CONVERSATION_TIMEOUT_SECONDS: "3",
  FOLLOWUP_WINDOW_SECONDS: "60",
  USE_LLM_JUDGE: "true",
  BOT_PERSONA: PERSONA,
  // The suite's own lane of the (fast) QStash stand-in, so that its faults stay in the suite.
  QSTASH_URL: qstashLaneUrl((envBindings as unknown as Record<string, string>).QSTASH_URL!, SUITE),
});
const CONTROL = String(env.DISCORD_GATEWAY_CONTROL_URL);
const API = String(env.DISCORD_API_BASE_URL);
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const BOT = { id: DISCORD_FAKE_BOT.userId, username: DISCORD_FAKE_BOT.username.toLowerCase() };
const GUILD = "320000000000000001";
const alice = { id: "230000000000000001", name: "Alice" };
const bob = { id: "230000000000000002", name: "Bob" };
let pump: JobPump;
let connection: GatewayConnection;
let logs: { mock: { calls: unknown[][] }; mockRestore(): void };
let seq = 0;

beforeAll(async () => {
  logs = vi.spyOn(console, "log");
  pump = startJobPump(env, SUITE);
  connection = await readyGateway(env);
});
afterAll(async () => {
  connection.shutdown();
  await pump.stop();
  logs.mockRestore();
});

function newChannel(): string {
  seq += 1;
  return `42${String(Date.now()).slice(-10)}${String(seq).padStart(4, "0")}`;
}
const say = (
  channelId: string,
  author: { id: string; name: string; bot?: boolean },
  content: string,
  extra: { mention?: boolean; replyTo?: { id: string; authorId: string } } = {},
) =>
  postThroughGateway(CONTROL, {
    guildId: GUILD,
    channelId,
    author,
    content: extra.mention ? `<@${BOT.id}> ${content}` : content,
    ...(extra.mention ? { mentions: [{ id: BOT.id, username: BOT.username }] } : {}),
    ...(extra.replyTo ? { replyTo: extra.replyTo } : {}),
  });
const posts = (channelId: string) => discordCalls(API, { route: "channel_message", channelId });
const logLines = (needle: string): string[] =>
  logs.mock.calls.map((c: unknown[]) => String(c[0])).filter((l: string) => l.includes(needle));
const conversationKeys = (channelId: string) => redis.keys(`t-${SUITE}:conv:*${channelId}*`);

describe("a Discord channel conversation over the Gateway", () => {
  it("starts on a mention and answers it as a reply to the trigger message", async () => {
    const channel = newChannel();
    const trigger = await say(channel, alice, `what is a good name for a cat? m1-${channel}`, { mention: true });
    const [reply] = await eventually(
      async () => (await posts(channel)).length === 1 && posts(channel),
      15_000,
      "the reply",
    );
    expect(reply!.message_reference).toMatchObject({ message_id: trigger });
    expect(reply!.allowed_mentions).toEqual({ parse: [] });
    const prompt = (await modelRequests(`m1-${channel}`)).find((r) => r.messages[0]?.content.includes(PERSONA));
    expect(JSON.stringify(prompt!.messages)).toContain("@Parley what is a good name for a cat?");
  });

  it("answers a follow-up from another person without a mention, with both messages in the prompt", async () => {
    const channel = newChannel();
    await scriptModel({
      match: `f1-${channel}`,
      reply: "Lima is the capital of Peru. The weather in Lima is mild most of the year.",
      times: 1,
    });
    await say(channel, alice, `what is the capital of Peru? f1-${channel}`, { mention: true });
    await eventually(async () => (await posts(channel)).length === 1, 15_000, "the first reply");
    await say(channel, bob, `is the weather in Lima mild in May too? f2-${channel}`);
    const all = await eventually(
      async () => (await posts(channel)).length === 2 && posts(channel),
      15_000,
      "the follow-up reply",
    );
    expect(all[1]!.message_reference).toBeUndefined();
    const prompt = (await modelRequests(`f2-${channel}`)).find((r) => r.messages[0]?.content.includes(PERSONA));
    const seen = JSON.stringify(prompt!.messages);
    expect(seen).toContain(`f1-${channel}`);
    expect(seen).toContain(`f2-${channel}`);
  });

  it("never reacts to the bot's own messages, even one that mentions the bot", async () => {
    const channel = newChannel();
    await say(channel, alice, `hello there o1-${channel}`, { mention: true });
    await eventually(async () => (await posts(channel)).length === 1, 15_000, "the reply");
    // The reply came back through the Gateway as a MESSAGE_CREATE by the bot; now one that even mentions it.
    await say(channel, { id: BOT.id, name: "Parley", bot: true }, `note to self o2-${channel}`, { mention: true });
    await settle(1_500);
    expect(await posts(channel)).toHaveLength(1);
    expect(logLines('"reason":"own_message"').length).toBeGreaterThanOrEqual(2);
    expect(logLines(`o2-${channel}`)).toEqual([]);
  });

  it("reads natural wording: a second person's follow-up goes to the judge, a name opens a side talk, 'not you' quiets the bot", async () => {
    const channel = newChannel();
    // People of their own: the per-person reply rate limit must not spill into the other tests.
    const [dana, eli, carol] = [
      { id: "230000000000000004", name: "Dana" },
      { id: "230000000000000005", name: "Eli" },
      { id: "230000000000000003", name: "Carol" },
    ];
    const answered = () =>
      logLines('"event":"job_ended"').filter((l) => l.includes(channel) && l.includes('"outcome":"answered"')).length;
    await say(channel, dana, "should I learn Rust or Go first for backend work?", { mention: true });
    await eventually(async () => answered() === 1, 15_000, "the answer to the mention");
    await say(channel, eli, "and is it worth it if I already know Go?");
    await eventually(async () => answered() === 2, 15_000, "the answer to the follow-up");
    await say(channel, dana, "Carol, are you coming to lunch today?");
    await say(channel, carol, "Dana: yes, 12:30?");
    await say(channel, eli, "I wasn't talking to you");
    await say(channel, eli, "and is it worth it for a small team?");
    await settle(1_500);
    expect(await posts(channel)).toHaveLength(2);
    const reasons = logLines('"event":"decision"')
      .filter((l) => l.includes(channel))
      .map((l) => (JSON.parse(l) as { reason: string }).reason);
    expect(reasons).toEqual([
      "direct_mention",
      "judge",
      "addressed_other",
      "addressed_other",
      "not_you",
      "told_not_you",
    ]);
  });

  it("ends the conversation after the inactivity timeout (120 s by default, 3 s here): a later message without a mention starts nothing", async () => {
    const channel = newChannel();
    await say(channel, alice, `remember me s1-${channel}`, { mention: true });
    await eventually(async () => (await posts(channel)).length === 1, 15_000, "the reply");
    expect((await conversationKeys(channel)).length).toBeGreaterThan(0);
    await eventually(async () => (await conversationKeys(channel)).length === 0, 10_000, "the conversation to expire");
    await say(channel, bob, `what about the weather there in May? s2-${channel}`);
    await settle(1_500);
    expect(await posts(channel)).toHaveLength(1);
    expect(await conversationKeys(channel)).toEqual([]);
  });

  it("posts both of two follow-up answers with the same text in one channel", async () => {
    const channel = newChannel();
    await scriptModel({ match: `same-${channel}`, reply: "Sure.", times: 2 });
    await say(channel, alice, `can you help me plan a picnic? start-${channel}`, { mention: true });
    await eventually(async () => (await posts(channel)).length === 1, 15_000, "the first answer");
    for (const [n, question] of ["could you bring the blanket?", "and could you bring the lemonade?"].entries()) {
      await say(channel, alice, `${question} same-${channel}`);
      await eventually(async () => (await posts(channel)).length === n + 2, 15_000, `follow-up answer ${n + 1}`);
    }
    const [, ...followUps] = await posts(channel);
    expect(followUps.map((p) => [p.content, p.message_reference])).toEqual([
      ["Sure.", undefined],
      ["Sure.", undefined],
    ]);
    expect(new Set(followUps.map((p) => p.id)).size).toBe(2);
  });

  it("tries a message whose job could not be published again, from the object's storage, and answers it once", async () => {
    const channel = newChannel();
    await scriptFault(String(env.QSTASH_URL), { fault: "refuse_publish", path: `/t/${SUITE}/jobs/reply`, status: 503 });
    await say(channel, alice, `are you there? p1-${channel}`, { mention: true });
    await eventually(async () => (await posts(channel)).length === 1, 20_000, "the answer after the retry");
    const decisions = logLines('"event":"decision"').filter((l) => l.includes(channel));
    // Recorded by the first try, published by the second.
    expect(decisions.map((l) => JSON.parse(l).status)).toEqual(["started", "unpublished"]);
    expect(logLines("discord_ingest_retried").length).toBeGreaterThan(0);
    await settle(1_500);
    expect(await posts(channel)).toHaveLength(1);
  });

  it("after a forced RECONNECT resumes the session without losing or repeating a message", async () => {
    const channel = newChannel();
    // People of their own: the reply rate limit counts answers per person, and the tests above talk a lot with Alice.
    const [gail, hugo] = [
      { id: "230000000000000021", name: "Gail" },
      { id: "230000000000000022", name: "Hugo" },
    ];
    const before = await gatewayState(CONTROL);
    await say(channel, gail, `let's plan the trip r0-${channel}`, { mention: true });
    await eventually(async () => (await posts(channel)).length === 1, 15_000, "the first reply");
    await controlGateway(CONTROL, "/__reconnect");
    const during = [
      await say(channel, hugo, `I can drive on Friday r1-${channel}`),
      await say(channel, gail, `I'll bring snacks r2-${channel}`),
    ];
    await eventually(
      async () => (await gatewayState(CONTROL)).resumes > before.resumes && connection.status().phase === "ready",
      10_000,
      "the resume",
    );
    await say(channel, gail, `so who drives and who brings snacks? r3-${channel}`, { mention: true });
    // Wait for the answer to r3 itself: r1 or r2 may have been answered too, as follow-ups to the bot.
    const prompt = await eventually(
      async () => (await modelRequests(`r3-${channel}`)).find((r) => r.messages[0]?.content.includes(PERSONA)),
      15_000,
      "the answer after the resume",
    );
    // People's turns only: when r1 or r2 was answered as a follow-up, the bot's answer quotes it (the local model
    // repeats what it was told), which is no message repeated.
    const seen = JSON.stringify(prompt.messages.filter((m) => m.role === "user"));
    for (const marker of [`r1-${channel}`, `r2-${channel}`]) expect(seen.split(marker).length - 1).toBe(1);
    for (const id of during)
      expect(logLines(`"message":"${id}"`).filter((l) => l.includes('"event":"decision"'))).toHaveLength(1);
    expect(logLines(channel).filter((l) => l.includes("duplicate_dropped"))).toEqual([]);
    expect((await gatewayState(CONTROL)).identifies).toBe(before.identifies);
  });
});

describe("a Discord thread or reply over the Gateway", () => {
  // People of their own: the reply rate limit counts answers per person, and the suite above talks a lot with Alice.
  const carol = { id: "230000000000000003", name: "Carol" };
  const dave = { id: "230000000000000004", name: "Dave" };
  const FAKE = API.replace(/\/api\/v10$/, "");
  const control = async (path: string, body: unknown) => {
    const res = await fetch(`${FAKE}${path}`, { method: "POST", body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`the Discord fake's ${path} answered ${res.status}`);
    return (await res.json()) as { id: string };
  };
  /** A person's message that Discord has and the bot never saw arrive. */
  const messageInDiscord = (channelId: string, author: { id: string; name: string }, content: string, id?: string) =>
    control("/__messages", {
      channel_id: channelId,
      content,
      author: { id: author.id, username: author.name.toLowerCase(), global_name: author.name },
      ...(id ? { id } : {}),
    });
  const answerPrompt = async (marker: string) =>
    (await modelRequests(marker)).find((r) => r.messages[0]?.content.includes(PERSONA))!;

  it("starts a thread's conversation with its starter message, and the answer's prompt shows it first", async () => {
    const parentChannel = newChannel();
    const starterText = `The build broke after the dependency update this morning. starter-${parentChannel}`;
    const starter = await messageInDiscord(parentChannel, carol, starterText);
    // A thread started from a message has that message's id.
    await control("/__channel", { id: starter.id, type: 11, parent_id: parentChannel });
    await say(starter.id, dave, `can you sum that up in one line? th-${parentChannel}`, { mention: true });
    await eventually(async () => (await posts(starter.id)).length === 1, 15_000, "the thread answer");
    const prompt = await answerPrompt(`th-${parentChannel}`);
    expect(dataBlockRecords(prompt)[0]).toEqual({ parent_message: { author: "Carol", text: starterText } });
  });

  it("answers a screenshot with a question from the picture, fetched from the CDN", async () => {
    const channel = newChannel();
    const shot = await discordAttachment({
      name: "crash.png",
      png: { width: 800, height: 600, colour: "#1eaa3c" },
      channel_id: channel,
    });
    await postThroughGateway(CONTROL, {
      guildId: GUILD,
      channelId: channel,
      author: alice,
      content: `<@${BOT.id}> what's this error? img-${channel}`,
      mentions: [{ id: BOT.id, username: BOT.username }],
      attachments: [shot],
    });
    const [reply] = await eventually(
      async () => (await posts(channel)).length === 1 && posts(channel),
      15_000,
      "the reply",
    );
    expect(reply!.content).toContain("PNG picture, 800×600, mostly green");
  });

  it("reads the picture of the message a thread was started from, when the thread's question brings none", async () => {
    const parentChannel = newChannel();
    const shot = await discordAttachment({
      name: "trace.png",
      png: { width: 120, height: 80, colour: "#fa8c14" },
      channel_id: parentChannel,
    });
    const starter = await control("/__messages", {
      channel_id: parentChannel,
      content: "",
      author: { id: carol.id, username: "carol", global_name: "Carol" },
      attachments: [shot],
    });
    await control("/__channel", { id: starter.id, type: 11, parent_id: parentChannel });
    await say(starter.id, dave, `what's this error? pic-${parentChannel}`, { mention: true });
    const [reply] = await eventually(
      async () => (await posts(starter.id)).length === 1 && posts(starter.id),
      15_000,
      "the thread answer",
    );
    expect(reply!.content).toContain("PNG picture, 120×80, mostly orange");
  });

  it("puts the message a reply answers into the answer's prompt, read from the channel with the talk before it", async () => {
    const channel = newChannel();
    const earlierText = `Deploys are frozen until the audit ends on the 12th. earlier-${channel}`;
    const earlier = await messageInDiscord(channel, carol, earlierText);
    await say(channel, dave, `does that include hotfixes? re-${channel}`, {
      mention: true,
      replyTo: { id: earlier.id, authorId: carol.id },
    });
    await eventually(async () => (await posts(channel)).length === 1, 15_000, "the answer to the reply");
    const prompt = await answerPrompt(`re-${channel}`);
    expect(turnRecords(prompt)[0]).toEqual({ author: "Carol", text: earlierText, before_you_were_called: true });
    expect(JSON.stringify(prompt.messages)).not.toContain("parent_message");
  });

  it("shows no parent in a channel that is not a thread", async () => {
    const channel = newChannel();
    await say(channel, carol, `what time is it in Lima? plain-${channel}`, { mention: true });
    await eventually(async () => (await posts(channel)).length === 1, 15_000, "the answer");
    const prompt = await answerPrompt(`plain-${channel}`);
    expect(JSON.stringify(prompt.messages)).not.toContain("parent_message");
  });
});
