import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDiscordFake, type RunningDiscordFake } from "../../dev/fakes/discord.ts";
import { registerDiscordCommands } from "../../dev/discord-register.ts";
import { APPLICATION_ID, discordCalls } from "../support/discord.ts";

let discord: RunningDiscordFake;

beforeAll(async () => {
  discord = await startDiscordFake({ port: 0 });
});
afterAll(async () => {
  await discord.close();
});

const env = (extra: Record<string, string> = {}) => ({
  DISCORD_APPLICATION_ID: APPLICATION_ID,
  DISCORD_BOT_TOKEN: "bot-token",
  DISCORD_API_BASE_URL: discord.url,
  BOT_NAME: "Parley",
  ...extra,
});

describe("npm run discord:register", () => {
  it("overwrites the global commands with /ask, the message command, /forget, /parley and /catchup", async () => {
    const result = await registerDiscordCommands(env());
    expect(result.scope).toBe("global");
    expect(result.commands.map((c) => [c.name, c.type])).toEqual([
      ["ask", 1],
      ["Ask Parley about this", 3],
      ["forget", 1],
      ["parley", 1],
      ["catchup", 1],
    ]);
    const [call] = await discordCalls(discord.url, { route: "register_commands", applicationId: APPLICATION_ID });
    expect(call!.guildId).toBeUndefined();
    // Offered to those who may manage the channel (Manage Channels, 1 << 4), in servers only.
    expect((call!.commands as unknown[])[3]).toMatchObject({ default_member_permissions: "16", contexts: [0] });
  });

  it("registers for one guild when DISCORD_GUILD_ID is set", async () => {
    const result = await registerDiscordCommands(env({ DISCORD_GUILD_ID: "900000000000000001" }));
    expect(result.scope).toBe("guild 900000000000000001");
    expect(await discordCalls(discord.url, { route: "register_commands", guildId: "900000000000000001" })).toHaveLength(
      1,
    );
  });

  it("names every missing setting", async () => {
    await expect(registerDiscordCommands({ DISCORD_API_BASE_URL: discord.url })).rejects.toThrow(
      /DISCORD_APPLICATION_ID.*DISCORD_BOT_TOKEN/,
    );
  });
});
