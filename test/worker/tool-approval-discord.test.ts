/**
 * Actions that need approval on Discord (docs/tools.md): `/ask` answered with the question (the edit of its deferred
 * response), the asker's ✅ or ❌ as the Gateway delivers MESSAGE_REACTION_ADD (through the connection's dispatch,
 * functions/discord-gateway-feed.ts), and the result or the cancellation posted as a channel message of its own:
 * the question is never edited again, and the call runs once however often the reaction comes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { gatewayDispatch } from "../../functions/discord-gateway-feed.ts";
import { generateDiscordKeys, type DiscordSigningKeys } from "../../dev/signers/discord.ts";
import { runtimeFor } from "../../lib/runtime.ts";
import { askInteraction, discordCalls } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { memoryBotRoles } from "../support/gateway-storage.ts";
import { createCalls, toolSettings } from "../support/tools.ts";
import { eventually, pumpJobsDuringSuite, settle, suiteEnv, type TestEnv } from "../support/worker.ts";

const SUITE = "approvaldiscord";
const BOT = "100000000000000001";
const GUILD = "310000000000000077";
const alice = { id: "210000000000000077", name: "Alice" };
let keys: DiscordSigningKeys;
const env: TestEnv = {};
let seq = 0;

beforeAll(async () => {
  keys = await generateDiscordKeys();
  Object.assign(
    env,
    suiteEnv(SUITE, {
      ...toolSettings("create_ticket"),
      DISCORD_PUBLIC_KEY: keys.publicKeyHex,
      DISCORD_BOT_TOKEN: "test-discord-bot-token",
    }),
  );
});
pumpJobsDuringSuite(env, SUITE);

const api = () => String(env.DISCORD_API_BASE_URL);
const newChannel = () => `42${String(Date.now()).slice(-10)}${String(++seq).padStart(4, "0")}`;

/** `/ask` in a new channel; resolves with the question's message id and the interaction's token. */
async function askToCreate(title: string): Promise<{ channelId: string; token: string; questionId: string }> {
  const channelId = newChannel();
  const interaction = askInteraction({ guildId: GUILD, channelId }, alice, `create_ticket {"title": "${title}"}`);
  expect((await interactAsDiscord(env, keys, interaction)).status).toBe(200);
  const [edit] = await eventually(
    async () => {
      const calls = await discordCalls(api(), { token: interaction.token });
      return calls.length > 0 && calls;
    },
    15_000,
    "the question",
  );
  expect(edit).toMatchObject({
    route: "edit_original",
    content: expect.stringContaining("⚠️ Approval needed: may I run create_ticket"),
  });
  return { channelId, token: interaction.token, questionId: String(edit!.id) };
}

async function react(channelId: string, messageId: string, emoji: string, userId = alice.id): Promise<void> {
  const dispatch = gatewayDispatch(runtimeFor(env), { deliver: async () => undefined }, memoryBotRoles());
  const data = {
    user_id: userId,
    channel_id: channelId,
    message_id: messageId,
    guild_id: GUILD,
    message_author_id: BOT,
    emoji: { id: null, name: emoji },
    burst: false,
    type: 0,
  };
  await dispatch("MESSAGE_REACTION_ADD", data, BOT);
}

const channelPosts = (channelId: string) => discordCalls(api(), { route: "channel_message", channelId });

describe("a confirm tool asked for with /ask", () => {
  it("runs once on the asker's ✅ and answers in a message of its own, the question left as it was", async () => {
    const title = `Discord printer jammed ${newChannel()}`;
    const { channelId, token, questionId } = await askToCreate(title);
    await react(channelId, questionId, "✅", "210000000000000099");
    await settle(1_500);
    expect(await channelPosts(channelId)).toEqual([]);
    await react(channelId, questionId, "✅");
    await react(channelId, questionId, "✔️");
    const [done] = await eventually(
      async () => (await channelPosts(channelId)).length > 0 && channelPosts(channelId),
      15_000,
      "the result",
    );
    expect(done!.content).toMatch(new RegExp(`^✅ Done: create_ticket: Created ticket \\d+ in IT: ${title}$`));
    await settle(1_500);
    expect(await channelPosts(channelId)).toHaveLength(1);
    expect((await discordCalls(api(), { token })).map((c) => c.route)).toEqual(["edit_original"]);
    expect(await createCalls(title)).toEqual([1]);
  });

  it("cancels on the asker's ❌ in a message of its own, and never calls the tool", async () => {
    const title = `Never mind ${newChannel()}`;
    const { channelId, token, questionId } = await askToCreate(title);
    await react(channelId, questionId, "❌");
    await react(channelId, questionId, "❌");
    const [cancelled] = await eventually(
      async () => (await channelPosts(channelId)).length > 0 && channelPosts(channelId),
      15_000,
      "the cancellation",
    );
    expect(cancelled!.content).toBe("❌ Cancelled: create_ticket was not run (❌).");
    await settle(1_500);
    expect(await channelPosts(channelId)).toHaveLength(1);
    expect((await discordCalls(api(), { token })).map((c) => c.route)).toEqual(["edit_original"]);
    expect(await createCalls(title)).toEqual([]);
  });
});
