/**
 * Actions that need approval on Discord (docs/tools.md): `/ask` answered with the question (the edit of its deferred
 * response), the asker's ✅ or ❌ as the Gateway delivers MESSAGE_REACTION_ADD (through the connection's dispatch,
 * functions/discord-gateway-feed.ts), and the result or the cancellation posted as a channel message of its own:
 * the question is edited only to carry its buttons and then its outcome (./tool-approval-buttons-discord.test.ts),
 * and the call runs once however often the reaction comes. The Gateway never
 * delivers a reaction again, so one whose decision or continuation failed is kept in the Gateway object's storage and
 * tried again by its alarm (2 s later, at production timing).
 */
import { env as bindings } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { gatewayDispatch, ingestRetries, type GatewayStorage } from "../../functions/discord-gateway-feed.ts";
import { generateDiscordKeys, type DiscordSigningKeys } from "../../dev/signers/discord.ts";
import { DECIDE } from "../../lib/approvals/answer-scripts.ts";
import { approvalKey } from "../../lib/keys.ts";
import { runtimeFor } from "../../lib/runtime.ts";
import { askInteraction, discordCalls } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { evalshaMatch, injectedFaults, scriptFault } from "../support/fault-control.ts";
import { memoryGatewayStorage } from "../support/gateway-storage.ts";
import { qstashLaneUrl } from "../support/qstash-clock.ts";
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
      // The suite's own lanes of the (fast) QStash stand-in and of the fault proxy before Redis: its faults stay here.
      QSTASH_URL: qstashLaneUrl((bindings as unknown as Record<string, string>).QSTASH_URL!, SUITE),
      UPSTASH_REDIS_REST_URL: `${inject("redisFaultProxyUrl")}/lanes/${SUITE}`,
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

/** The reaction through a Gateway connection's dispatch; answers the storage of the object that runs it. */
async function react(channelId: string, messageId: string, emoji: string, userId = alice.id): Promise<GatewayStorage> {
  const storage = memoryGatewayStorage(env);
  const dispatch = gatewayDispatch(runtimeFor(env), ingestRetries(env, storage), storage.botRoles);
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
  return storage;
}

/**
 * The question's edits, each once: the answer and its buttons through the interaction's webhook, then its outcome by
 * the continuation, whose target is the channel (the token may be gone by then).
 */
const questionEdits = async (token: string, channelId: string) =>
  [...(await discordCalls(api(), { token })), ...(await discordCalls(api(), { route: "edit_message", channelId }))].map(
    (c) => c.route,
  );
const outcomeEdit = async (channelId: string, id: string) =>
  (await discordCalls(api(), { route: "edit_message", channelId, id })).at(-1);
const channelPosts = (channelId: string) => discordCalls(api(), { route: "channel_message", channelId });

describe("a confirm tool asked for with /ask", () => {
  it("runs once on the asker's ✅ and answers in a message of its own, the question given its outcome", async () => {
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
    expect(await questionEdits(token, channelId)).toEqual(["edit_original", "edit_followup", "edit_message"]);
    expect((await outcomeEdit(channelId, questionId))!.content).toMatch(/✅ Approved by <@\d+> — running…$/);
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
    expect(await questionEdits(token, channelId)).toEqual(["edit_original", "edit_followup", "edit_message"]);
    expect((await outcomeEdit(channelId, questionId))!.content).toMatch(/❌ Cancelled by <@\d+>$/);
    expect(await createCalls(title)).toEqual([]);
  });
});

describe("a ✅ the Gateway delivered once", () => {
  const place = (channelId: string) => ({ platform: "discord" as const, tenant: GUILD, channel: channelId });

  /** The asker's ✅ after `fault` was scripted; the result once, the call once. */
  async function approvedDespite(fault: (q: { channelId: string; questionId: string }) => Promise<string>) {
    const title = `Discord retried ${newChannel()}`;
    const asked = await askToCreate(title);
    const faultUrl = await fault(asked);
    const storage = await react(asked.channelId, asked.questionId, "✅");
    expect(await injectedFaults(faultUrl)).toHaveLength(1);
    expect(await storage.pending.all()).toHaveLength(1);
    const [done] = await eventually(
      async () => (await channelPosts(asked.channelId)).length > 0 && channelPosts(asked.channelId),
      15_000,
      "the result after the Gateway object's retry",
    );
    expect(done!.content).toMatch(new RegExp(`^✅ Done: create_ticket: Created ticket \\d+ in IT: ${title}$`));
    await settle(1_500);
    expect(await channelPosts(asked.channelId)).toHaveLength(1);
    expect(await createCalls(title)).toEqual([1]);
    expect(await storage.pending.all()).toEqual([]);
  }

  it("is decided when the alarm tries it again after Redis refused its decision, and the call runs once", async () => {
    const proxy = `${String(env.UPSTASH_REDIS_REST_URL)}/__proxy`;
    await approvedDespite(async ({ channelId, questionId }) => {
      const record = approvalKey(String(env.REDIS_KEY_PREFIX), place(channelId), questionId);
      const decision = await evalshaMatch(DECIDE.source, 3, record);
      await scriptFault(proxy, { fault: "refuse", bodyContains: decision, status: 503 });
      return proxy;
    });
  });

  it("has its continuation published when the alarm tries it again after QStash refused it, and the call runs once", async () => {
    const qstash = String(env.QSTASH_URL);
    await approvedDespite(async () => {
      await scriptFault(qstash, { fault: "refuse_publish", path: `/t/${SUITE}/jobs/approval`, status: 503 });
      return qstash;
    });
  });
});
