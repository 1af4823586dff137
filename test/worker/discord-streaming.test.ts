/**
 * @module
 * Discord answers streamed as they are written (issue #15): the deferred "thinking…" message of an interaction,
 * or the channel message of a Gateway answer, edited as the answer grows (its Markdown closed in each snapshot),
 * one message whatever happens to the job meanwhile; typing shown while a Gateway answer is on its way.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { env as envBindings } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCORD_FAKE_BOT } from "../../dev/fakes/discord.ts";
import { generateDiscordKeys, type DiscordSigningKeys } from "../../dev/signers/discord.ts";
import { ConversationStore } from "../../lib/conversation/store.ts";
import type { GatewayConnection } from "../../lib/platforms/discord/gateway/connection.ts";
import { askInteraction, discordCalls, postThroughGateway } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { scriptFault } from "../support/fault-control.ts";
import { readyGateway } from "../support/gateway-storage.ts";
import { modelRequests } from "../support/model.ts";
import { qstashLaneUrl } from "../support/qstash-clock.ts";
import {
  eventually,
  MODEL_CONTROL_URL,
  startJobPump,
  suiteEnv,
  type JobPump,
  type TestEnv,
} from "../support/worker.ts";

const SUITE = "discordstream";
const PACE = "[[local-model tokens=160 tps=80 first_ms=150]]";
const GUILD = "330000000000000001";
const alice = { id: "240000000000000001", name: "Alice" };
const BOT = { id: DISCORD_FAKE_BOT.userId, username: DISCORD_FAKE_BOT.username.toLowerCase() };
let keys: DiscordSigningKeys;
let env: TestEnv;
let store: ConversationStore;
let pump: JobPump;
let connection: GatewayConnection;
let seq = 0;

beforeAll(async () => {
  keys = await generateDiscordKeys();
  env = suiteEnv(SUITE, {
    DISCORD_PUBLIC_KEY: keys.publicKeyHex,
    DISCORD_BOT_TOKEN: "test-discord-bot-token",
    STREAMING: "true",
    SHOW_WORKING: "true",
    QSTASH_URL: qstashLaneUrl((envBindings as unknown as Record<string, string>).QSTASH_URL!, SUITE),
  });
  store = new ConversationStore(
    new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) }),
    {
      prefix: `t-${SUITE}`,
      ttlSeconds: () => 120,
      maxMessages: 200,
    },
  );
  pump = startJobPump(env, SUITE);
  connection = await readyGateway(env);
});
afterAll(async () => {
  connection.shutdown();
  await pump.stop();
});

const api = () => String(env.DISCORD_API_BASE_URL);
function newChannel(): string {
  seq += 1;
  return `43${String(Date.now()).slice(-10)}${String(seq).padStart(4, "0")}`;
}

async function recordedAnswer(channel: string): Promise<string | undefined> {
  const state = await store.load({ platform: "discord", tenant: GUILD, channel });
  return state?.recent.find((m) => m.role === "assistant")?.text;
}
const answered = (channel: string) => eventually(() => recordedAnswer(channel), 20_000, "the answer recorded");

async function ask(channel: string, question: string): Promise<string> {
  const interaction = askInteraction({ guildId: GUILD, channelId: channel }, alice, question);
  const res = await interactAsDiscord(env, keys, interaction);
  expect(res.status).toBe(200);
  await res.body?.cancel();
  return interaction.token;
}

describe("a Discord /ask answer", () => {
  it("edits the deferred message as the answer grows, each snapshot with its Markdown closed", async () => {
    const channel = newChannel();
    const token = await ask(channel, `explain it ${PACE}`);
    const answer = await answered(channel);
    const edits = await discordCalls(api(), { token });
    expect(edits.every((e) => e.route === "edit_original")).toBe(true);
    expect(edits.length).toBeGreaterThan(1);
    for (const edit of edits) expect(String(edit.content).split("```").length % 2).toBe(1);
    expect(edits[edits.length - 1]!.content).toBe(answer);
  });

  it("killed mid-stream and retried, ends as the one message holding the whole answer", async () => {
    const channel = newChannel();
    const marker = `marker-${channel}`;
    await scriptFault(MODEL_CONTROL_URL, { fault: "drop_after", path: "/chat.completions", bodyContains: marker });
    const token = await ask(channel, `tell me all ${marker} ${PACE}`);
    const answer = await answered(channel);
    expect((await modelRequests(marker)).length).toBe(2);
    const edits = await discordCalls(api(), { token });
    expect(edits.every((e) => e.route === "edit_original")).toBe(true);
    expect(edits[edits.length - 1]!.content).toBe(answer);
  });
});

describe("a Discord answer over the Gateway", () => {
  const mention = (channelId: string, content: string) =>
    postThroughGateway(String(env.DISCORD_GATEWAY_CONTROL_URL), {
      guildId: GUILD,
      channelId,
      author: alice,
      content: `<@${BOT.id}> ${content}`,
      mentions: [{ id: BOT.id, username: BOT.username }],
    });

  it("shows typing, then posts one message that is edited as it grows", async () => {
    const channel = newChannel();
    await mention(channel, `go on ${PACE}`);
    const answer = await answered(channel);
    expect(await discordCalls(api(), { route: "typing", channelId: channel })).not.toEqual([]);
    const posts = await discordCalls(api(), { route: "channel_message", channelId: channel });
    expect(posts).toHaveLength(1);
    const edits = await discordCalls(api(), { route: "edit_message", channelId: channel });
    expect(edits.length).toBeGreaterThan(0);
    expect(edits[edits.length - 1]!.content).toBe(answer);
  });

  it("killed mid-stream and retried, leaves one message with the whole answer", async () => {
    const channel = newChannel();
    const marker = `marker-${channel}`;
    await scriptFault(MODEL_CONTROL_URL, { fault: "drop_after", path: "/chat.completions", bodyContains: marker });
    await mention(channel, `all of it ${marker} ${PACE}`);
    const answer = await answered(channel);
    expect((await modelRequests(marker)).length).toBe(2);
    expect(await discordCalls(api(), { route: "channel_message", channelId: channel })).toHaveLength(1);
    const edits = await discordCalls(api(), { route: "edit_message", channelId: channel });
    expect(edits[edits.length - 1]!.content).toBe(answer);
  });
});
