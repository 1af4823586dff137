/**
 * @module
 * Discord: the first answer of a conversation sees what the room saw (issue #25). People talk in a server channel
 * over the Gateway without addressing the bot, then one mentions it: the answer's prompt has their talk, marked as
 * said before the bot was called, read with one Get Channel Messages call. In a channel where the bot lacks Read
 * Message History (Discord then lists nothing, and refuses a reply), the answer goes out without it, posted
 * without the reply link, and the missing permission is logged once for the place.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { env as envBindings } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DISCORD_FAKE_BOT } from "../../dev/fakes/discord.ts";
import { PERMISSION } from "../../dev/fakes/discord/permissions.ts";
import type { GatewayConnection } from "../../lib/platforms/discord/gateway/connection.ts";
import { discordCalls, gatewaySpeaker, postThroughGateway } from "../support/discord.ts";
import { readyGateway } from "../support/gateway-storage.ts";
import { modelRequests, turnRecords } from "../support/model.ts";
import { qstashLaneUrl } from "../support/qstash-clock.ts";
import { eventually, startJobPump, suiteEnv, type JobPump } from "../support/worker.ts";

const SUITE = "discordback";
const PERSONA = "You are Parley, reading a Discord room.";
const env = suiteEnv(SUITE, {
  DISCORD_BOT_TOKEN: "test-discord-bot-token",
  BACKFILL_MESSAGES: "30",
  // Short conversations: the refusal test starts a second one in the same channel.
  CONVERSATION_TIMEOUT_SECONDS: "2",
  BOT_PERSONA: PERSONA,
  QSTASH_URL: qstashLaneUrl((envBindings as unknown as Record<string, string>).QSTASH_URL!, SUITE),
});
const CONTROL = String(env.DISCORD_GATEWAY_CONTROL_URL);
const API = String(env.DISCORD_API_BASE_URL);
const FAKE = API.replace(/\/api\/v10$/, "");
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const BOT = { id: DISCORD_FAKE_BOT.userId, username: DISCORD_FAKE_BOT.username.toLowerCase() };
const GUILD = "340000000000000001";
const [alice, bob, carol] = [
  { id: "250000000000000001", name: "Alice" },
  { id: "250000000000000002", name: "Bob" },
  { id: "250000000000000003", name: "Carol" },
];
let pump: JobPump;
let connection: GatewayConnection;
let seq = 0;

beforeAll(async () => {
  pump = startJobPump(env, SUITE);
  connection = await readyGateway(env);
});
afterAll(async () => {
  connection.shutdown();
  await pump.stop();
});

function newChannel(): string {
  seq += 1;
  return `44${String(Date.now()).slice(-10)}${String(seq).padStart(4, "0")}`;
}
const say = gatewaySpeaker(CONTROL, GUILD, BOT);
const answers = (channelId: string) => discordCalls(API, { route: "channel_message", channelId });
const answered = (channelId: string, count: number) =>
  eventually(async () => (await answers(channelId)).length >= count, 20_000, `answer ${count}`);
const answerPrompt = async (marker: string) =>
  (await modelRequests(marker)).find((r) => r.messages[0]?.content.includes(PERSONA))!;

describe("a conversation's first answer on Discord", () => {
  it("sees the channel's talk before the mention, marked as such, read with one call", async () => {
    const channel = newChannel();
    await say(channel, alice, `the migrations step timed out on the orders table lock deploy-${channel}`);
    await say(channel, bob, "an analytics query held it, roll back to 4.12 or kill the query?");
    await say(channel, carol, `what do you think, should we roll back? q-${channel}`, true);
    await answered(channel, 1);
    expect(turnRecords(await answerPrompt(`q-${channel}`)).slice(0, 2)).toEqual([
      {
        author: "Alice",
        text: `the migrations step timed out on the orders table lock deploy-${channel}`,
        before_you_were_called: true,
      },
      {
        author: "Bob",
        text: "an analytics query held it, roll back to 4.12 or kill the query?",
        before_you_were_called: true,
      },
    ]);
    expect(await discordCalls(API, { route: "list_messages", channelId: channel })).toHaveLength(1);
  });

  it("in a DM sees the person's earlier talk with the bot, the bot's answers as its own turns", async () => {
    const dm = newChannel();
    const dana = { id: "250000000000000004", name: "Dana" };
    await postThroughGateway(CONTROL, {
      channelId: dm,
      author: dana,
      content: `which train goes to the airport? dm1-${dm}`,
    });
    await answered(dm, 1);
    const [first] = await answers(dm);
    await eventually(
      async () => (await redis.keys(`t-${SUITE}:conv:*${dm}*`)).length === 0,
      15_000,
      "the conversation to end",
    );
    await postThroughGateway(CONTROL, { channelId: dm, author: dana, content: `and how long does it take? dm2-${dm}` });
    await answered(dm, 2);
    expect(turnRecords(await answerPrompt(`dm2-${dm}`)).slice(0, 2)).toEqual([
      { author: "Dana", text: `which train goes to the airport? dm1-${dm}`, before_you_were_called: true },
      { bot: first!.content },
    ]);
  });

  it("without Read Message History answers without the talk, and logs the missing permission once for the place", async () => {
    const warnings = vi.spyOn(console, "warn");
    const channel = newChannel();
    const res = await fetch(`${FAKE}/__channel`, {
      method: "POST",
      body: JSON.stringify({
        id: channel,
        bot_permissions: String(PERMISSION.VIEW_CHANNEL | PERMISSION.SEND_MESSAGES),
      }),
    });
    expect(res.ok).toBe(true);
    await say(channel, alice, `we ship on friday ship-${channel}`);
    await say(channel, carol, `when do we ship? s1-${channel}`, true);
    await answered(channel, 1);
    expect(JSON.stringify((await answerPrompt(`s1-${channel}`)).messages)).not.toContain(`ship-${channel}`);
    expect((await answers(channel))[0]!.message_reference).toBeUndefined();
    // A second conversation in the channel is read again (and lists nothing again), and not logged again.
    await eventually(
      async () => (await redis.keys(`t-${SUITE}:conv:*${channel}*`)).length === 0,
      15_000,
      "the conversation to end",
    );
    await say(channel, carol, `and the release notes? s2-${channel}`, true);
    await answered(channel, 2);
    const refused = warnings.mock.calls
      .map((c) => String(c[0]))
      .filter((l) => l.includes('"event":"history_refused"') && l.includes(channel));
    expect(refused.map((l) => JSON.parse(l) as { missing: string })).toMatchObject([
      { missing: "READ_MESSAGE_HISTORY" },
    ]);
    warnings.mockRestore();
  });
});
