/**
 * What the bot's Gateway intents bring, through the fake Gateway (which delivers only what they ask for): GUILD_DELETE
 * (the guild's cleanup), GUILD_CREATE (the bot's managed role, whose mentions are mentions), a 👎 in the bot's DM.
 * Each failed with the intents Parley asked for before (no GUILDS, no DIRECT_MESSAGE_REACTIONS).
 */
import { Redis } from "@upstash/redis/cloudflare";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DISCORD_FAKE_BOT } from "../../dev/fakes/discord.ts";
import type { GatewayConnection } from "../../lib/platforms/discord/gateway/connection.ts";
import { conversationKeys } from "../../lib/keys.ts";
import { controlGateway, discordCalls, postThroughGateway, snowflake } from "../support/discord.ts";
import { readyGateway } from "../support/gateway-storage.ts";
import { modelRequests } from "../support/model.ts";
import { eventually, pumpJobsDuringSuite, settle, suiteEnv } from "../support/worker.ts";

const SUITE = "discordintents";
const PERSONA = "You are Parley, answering in a Discord test channel about intents.";
const env = suiteEnv(SUITE, { DISCORD_BOT_TOKEN: "test-discord-bot-token", BOT_PERSONA: PERSONA });
const CONTROL = String(env.DISCORD_GATEWAY_CONTROL_URL);
const API = String(env.DISCORD_API_BASE_URL);
const BOT_ID = DISCORD_FAKE_BOT.userId;
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
pumpJobsDuringSuite(env, SUITE);
let connection: GatewayConnection;
let logs: { mock: { calls: unknown[][] }; mockRestore(): void };

beforeAll(async () => {
  logs = vi.spyOn(console, "log");
  connection = await readyGateway(env);
});
afterAll(() => {
  connection.shutdown();
  logs.mockRestore();
});

const posts = (channelId: string) => discordCalls(API, { route: "channel_message", channelId });
const logLines = (needle: string): string[] =>
  logs.mock.calls.map((c: unknown[]) => String(c[0])).filter((l: string) => l.includes(needle));

describe("what the Gateway delivers to the bot's intents", () => {
  const erin = { id: "230000000000000006", name: "Erin" };

  it("a GUILD_DELETE of a guild the bot was removed from reaches the connection and deletes the guild's keys", async () => {
    const guild = snowflake();
    const conv = conversationKeys(`t-${SUITE}`, { platform: "discord", tenant: guild, channel: snowflake() });
    await redis.set(conv.state, "{}", { ex: 600 });
    await controlGateway(CONTROL, "/__guild_delete", { guild_id: guild, unavailable: true });
    await settle(1_000);
    expect(await redis.exists(conv.state)).toBe(1);
    await controlGateway(CONTROL, "/__guild_delete", { guild_id: guild });
    await eventually(async () => (await redis.exists(conv.state)) === 0, 15_000, "the guild's keys to go");
  });

  it("a mention of the bot's managed role, once GUILD_CREATE named it, is answered as a mention", async () => {
    const guild = snowflake();
    const role = snowflake();
    await controlGateway(CONTROL, "/__guild_create", { guild_id: guild, bot_role_id: role });
    const channel = snowflake();
    const trigger = await postThroughGateway(CONTROL, {
      guildId: guild,
      channelId: channel,
      author: erin,
      content: `<@&${role}> what is a haiku? role-${channel}`,
      mentionRoles: [role],
    });
    const [reply] = await eventually(
      async () => (await posts(channel)).length === 1 && posts(channel),
      15_000,
      "the answer",
    );
    expect(reply!.message_reference).toMatchObject({ message_id: trigger });
    const prompt = (await modelRequests(`role-${channel}`)).find((r) => r.messages[0]?.content.includes(PERSONA));
    expect(JSON.stringify(prompt!.messages)).toContain("@Parley what is a haiku?");
  });

  it("a 👎 with a skin tone on the bot's answer in its DM reaches the connection as 'not you'", async () => {
    const channel = snowflake();
    await postThroughGateway(CONTROL, {
      channelId: channel,
      author: erin,
      content: `hi, are you there? dm-${channel}`,
    });
    const [answer] = await eventually(
      async () => (await posts(channel)).length === 1 && posts(channel),
      15_000,
      "the DM answer",
    );
    await controlGateway(CONTROL, "/__dispatch", {
      t: "MESSAGE_REACTION_ADD",
      d: {
        user_id: erin.id,
        channel_id: channel,
        message_id: answer!.id,
        message_author_id: BOT_ID,
        emoji: { id: null, name: "👎🏽" },
        burst: false,
        type: 0,
      },
    });
    const feedback = `"message":"${answer!.id}:not_you:${erin.id}"`;
    const decisions = () => logLines(feedback).filter((l) => l.includes('"event":"decision"'));
    const [decision] = await eventually(
      async () => decisions().length > 0 && decisions(),
      15_000,
      "the feedback's decision",
    );
    expect(JSON.parse(decision!)).toMatchObject({ reason: "not_you", respond: "no" });
  });
});
