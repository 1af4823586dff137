/**
 * @module
 * The Discord Gateway fake delivers only what an IDENTIFY's intents ask for, as Discord's docs list them, empties
 * message content without MESSAGE_CONTENT, and closes with Discord's codes for intents that do not exist (4013) or
 * that the app has not enabled (4014).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DISCORD_FAKE_BOT } from "../../dev/fakes/discord.ts";
import { startDiscordGatewayFake, type RunningDiscordGatewayFake } from "../../dev/fakes/discord-gateway.ts";
import { closeGatewayClients, connect, controlFake, type Client } from "../support/gateway-client.ts";

const BIT = {
  GUILDS: 1 << 0,
  GUILD_MEMBERS: 1 << 1,
  GUILD_MESSAGES: 1 << 9,
  GUILD_REACTIONS: 1 << 10,
  DIRECT_MESSAGES: 1 << 12,
  DM_REACTIONS: 1 << 13,
  MESSAGE_CONTENT: 1 << 15,
};
/** What Parley asked for before issue 26: no GUILDS, no DIRECT_MESSAGE_REACTIONS. */
const OLD_PARLEY_INTENTS = 38_400;
const GUILD = "320000000000000001";
const alice = { id: "230000000000000001", username: "alice" };
let gateway: RunningDiscordGatewayFake;

beforeEach(async () => {
  gateway = await startDiscordGatewayFake({ port: 0, heartbeatIntervalMs: 60_000 });
});
afterEach(async () => {
  closeGatewayClients();
  await gateway.close();
});

const control = <T>(path: string, body?: unknown): Promise<T> => controlFake<T>(gateway.controlUrl, path, body);

async function identified(intents: unknown): Promise<Client> {
  const client = await connect(gateway.url);
  client.send({ op: 2, d: { token: "t", intents, properties: { os: "linux", browser: "test", device: "test" } } });
  return client;
}

/** A session of the bot in GUILD, READY; it takes the shard over from any earlier session. */
async function started(intents: number): Promise<Client> {
  await control("/__guilds", { ids: [GUILD] });
  const client = await identified(intents);
  await client.until((e) => e.t === "READY");
  return client;
}

/** The kinds of the dispatches received, once a marker event (gated by no intent) has come after them. */
async function received(client: Client, marker: string): Promise<string[]> {
  await control("/__dispatch", { t: "INTEGRATION_CREATE_MARKER", d: { marker } });
  await client.until((e) => e.t === "INTEGRATION_CREATE_MARKER");
  return client.events.filter((e) => e.t && e.t !== "READY" && e.t !== "INTEGRATION_CREATE_MARKER").map((e) => e.t!);
}

const reaction = (guildId?: string) => ({
  user_id: alice.id,
  channel_id: "42",
  message_id: "43",
  ...(guildId ? { guild_id: guildId } : {}),
  message_author_id: DISCORD_FAKE_BOT.userId,
  emoji: { id: null, name: "👎" },
});

describe("what a connection receives", () => {
  it("without GUILDS, neither GUILD_CREATE nor GUILD_DELETE; with it, both", async () => {
    const without = await started(OLD_PARLEY_INTENTS);
    await control("/__guild_delete", { guild_id: GUILD });
    expect(await received(without, "a")).toEqual([]);
    const withGuilds = await started(OLD_PARLEY_INTENTS | BIT.GUILDS);
    await control("/__guild_delete", { guild_id: GUILD });
    expect(await received(withGuilds, "b")).toEqual(["GUILD_CREATE", "GUILD_DELETE"]);
  });

  it("a reaction in a DM only with DIRECT_MESSAGE_REACTIONS, one in a guild only with GUILD_MESSAGE_REACTIONS", async () => {
    const guildOnly = await started(BIT.GUILD_MESSAGES | BIT.GUILD_REACTIONS | BIT.DIRECT_MESSAGES);
    await control("/__dispatch", { t: "MESSAGE_REACTION_ADD", d: reaction() });
    await control("/__dispatch", { t: "MESSAGE_REACTION_ADD", d: reaction(GUILD), guild_id: GUILD });
    expect(await received(guildOnly, "a")).toEqual(["MESSAGE_REACTION_ADD"]);
    expect(guildOnly.events.find((e) => e.t === "MESSAGE_REACTION_ADD")!.d).toMatchObject({ guild_id: GUILD });
    const dmOnly = await started(BIT.DM_REACTIONS);
    await control("/__dispatch", { t: "MESSAGE_REACTION_ADD", d: reaction() });
    await control("/__dispatch", { t: "MESSAGE_REACTION_ADD", d: reaction(GUILD), guild_id: GUILD });
    expect(await received(dmOnly, "b")).toEqual(["MESSAGE_REACTION_ADD"]);
    expect(dmOnly.events.find((e) => e.t === "MESSAGE_REACTION_ADD")!.d).not.toHaveProperty("guild_id");
  });

  it("without MESSAGE_CONTENT, a guild message arrives emptied, except one that mentions the bot, a DM and the bot's own", async () => {
    const client = await started(BIT.GUILD_MESSAGES | BIT.DIRECT_MESSAGES);
    const post = (extra: object) =>
      control("/__message", {
        channel_id: "42",
        content: "secret plans",
        author: alice,
        embeds: [{ title: "e" }],
        ...extra,
      });
    await post({ guild_id: GUILD });
    await post({ guild_id: GUILD, mentions: [{ id: DISCORD_FAKE_BOT.userId, username: "parley" }] });
    await post({ guild_id: GUILD, author: { id: DISCORD_FAKE_BOT.userId, username: "parley", bot: true } });
    await control("/__message", { channel_id: "77", content: "secret plans", author: alice });
    await received(client, "a");
    const messages = client.events
      .filter((e) => e.t === "MESSAGE_CREATE")
      .map((e) => e.d as { content: string; embeds: unknown[] });
    expect(messages.map((m) => [m.content, m.embeds.length])).toEqual([
      ["", 0],
      ["secret plans", 1],
      ["secret plans", 1],
      ["secret plans", 0],
    ]);
  });

  it("with MESSAGE_CONTENT, a guild message arrives whole", async () => {
    const client = await started(BIT.GUILD_MESSAGES | BIT.MESSAGE_CONTENT);
    await control("/__message", { guild_id: GUILD, channel_id: "42", content: "hello all", author: alice });
    expect((await client.until((e) => e.t === "MESSAGE_CREATE")).d).toMatchObject({ content: "hello all" });
  });
});

describe("intents Discord refuses", () => {
  it.each([
    ["a bit Discord does not define", 1 << 30],
    ["a negative number", -1],
    ["a string", "513"],
  ])("closes with 4013 for %s", async (_name, intents) => {
    expect(await (await identified(intents)).closed).toBe(4013);
  });

  it("closes with 4014 for a privileged intent the app has not enabled, and accepts it once enabled", async () => {
    expect(await (await identified(BIT.GUILDS | BIT.GUILD_MEMBERS)).closed).toBe(4014);
    await control("/__config", { enabledPrivilegedIntents: 0 });
    expect(await (await identified(BIT.GUILD_MESSAGES | BIT.MESSAGE_CONTENT)).closed).toBe(4014);
    await control("/__config", { enabledPrivilegedIntents: BIT.GUILD_MEMBERS | BIT.MESSAGE_CONTENT });
    const accepted = await identified(BIT.GUILDS | BIT.GUILD_MEMBERS | BIT.MESSAGE_CONTENT);
    expect((await accepted.until((e) => e.t === "READY")).op).toBe(0);
  });
});
