/**
 * @module
 * "Catch me up" on Discord (issue #25, item 2): `/catchup hours:1` reads the channel's messages of the last hour
 * through Get Channel Messages and answers in the interaction's deferred message, each point with a jump link
 * (`https://discord.com/channels/<guild>/<channel>/<message>`); what was said before the hour and in another
 * channel stays out; a member without Read Message History in the channel gets none of its earlier messages retold.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDiscordKeys, type DiscordSigningKeys } from "../../dev/signers/discord.ts";
import { askInteraction, discordCalls, discordMessageAt } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import { eventually, startJobPump, suiteEnv, type JobPump, type TestEnv } from "../support/worker.ts";

const SUITE = "catchupdiscord";
const GUILD = "320000000000000001";
const carol = { id: "230000000000000003", name: "Carol" };
let keys: DiscordSigningKeys;
let env: TestEnv;
let pump: JobPump;

beforeAll(async () => {
  keys = await generateDiscordKeys();
  env = suiteEnv(SUITE, { DISCORD_PUBLIC_KEY: keys.publicKeyHex, DISCORD_BOT_TOKEN: "test-discord-bot-token" });
  pump = startJobPump(env, SUITE);
});
afterAll(async () => {
  await pump.stop();
});

const newChannel = () =>
  `42${String(Date.now()).slice(-10)}${String(Math.floor(Math.random() * 1e4)).padStart(4, "0")}`;

/** A message the channel has, written `minutesAgo` before now; its id. */
const inDiscord = (channel: string, author: { id: string; name: string }, content: string, minutesAgo: number) =>
  discordMessageAt(String(env.DISCORD_API_BASE_URL), channel, author, content, Date.now() - minutesAgo * 60_000);

/** Carol's `/catchup hours:1` in `channel` (her member's `permissions` as given); the interaction's edits. */
async function catchUp(channel: string, permissions?: string) {
  const interaction = askInteraction({ guildId: GUILD, channelId: channel }, carol, "unused");
  const res = await interactAsDiscord(env, keys, {
    ...interaction,
    ...(permissions ? { member: { ...interaction.member!, permissions } } : {}),
    data: { ...interaction.data, name: "catchup", options: [{ name: "hours", type: 4, value: 1 }] },
  });
  expect(res.status).toBe(200);
  return eventually(
    async () => {
      const c = await discordCalls(String(env.DISCORD_API_BASE_URL), { token: interaction.token });
      return c.length > 0 && c;
    },
    15_000,
    "the edit",
  );
}

describe("/catchup on Discord", () => {
  it("sums up the last hour of the channel with jump links, and nothing older or elsewhere", async () => {
    const channel = newChannel();
    const tag = `cud-${channel}`;
    await inDiscord(channel, { id: "230000000000000001", name: "Alice" }, `yesterday's plan old-${tag}`, 120);
    const first = await inDiscord(channel, { id: "230000000000000001", name: "Alice" }, `the deploy failed ${tag}`, 30);
    const second = await inDiscord(channel, { id: "230000000000000002", name: "Bob" }, `roll back to 4.12? ${tag}`, 20);
    await inDiscord(newChannel(), { id: "230000000000000002", name: "Bob" }, `elsewhere-${tag}`, 10);
    await scriptModel({ match: tag, reply: "Topics:\n- the failed deploy [1]\nOpen questions:\n- roll back? [2]" });

    const calls = await catchUp(channel);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.content).toBe(
      `Topics:\n- the failed deploy https://discord.com/channels/${GUILD}/${channel}/${first}\n` +
        `Open questions:\n- roll back? https://discord.com/channels/${GUILD}/${channel}/${second}`,
    );
    const sent = JSON.stringify(await modelRequests(tag));
    expect(sent).not.toContain(`old-${tag}`);
    expect(sent).not.toContain(`elsewhere-${tag}`);
  });

  it("retells nothing of the channel's history to a member without Read Message History there", async () => {
    const channel = newChannel();
    const tag = `cudh-${channel}`;
    await inDiscord(channel, { id: "230000000000000001", name: "Alice" }, `the salary sheet is here ${tag}`, 30);
    // View Channel and Send Messages, not Read Message History (1 << 16): what the interaction's member says.
    const calls = await catchUp(channel, String((1 << 10) | (1 << 11)));
    expect(calls[0]!.content).toContain("READ_MESSAGE_HISTORY for the person asking");
    expect(calls[0]!.content).not.toContain("salary");
    expect(await modelRequests(tag)).toEqual([]);
  });
});
