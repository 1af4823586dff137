/**
 * Approval with buttons on Discord (docs/tools.md, docs/platforms/discord.md): the confirm tool's question, the
 * answer to `/ask`, gets an action row of Approve (success) and Cancel (danger) by an edit once the approval is
 * open; a press is a MESSAGE_COMPONENT interaction (type 3) on POST /discord/interactions, signed as every
 * interaction is, whose `member.user.id` is who pressed. The asker's press decides it through the same script as a
 * ✅ (answered with a deferred update, type 6), and the call runs exactly once at the tool server (counted by
 * idempotency key) however often the press comes (a double click, a redelivery of the same body); anyone else's
 * press changes nothing and is told why, to them alone (type 4, flag 64); the buttons give way to the outcome on
 * the question itself. Every job is delivered twice at once. The press is the docs' button interaction
 * (test/fixtures/platforms/discord/interactions-components.json).
 */
import { describe, expect, it } from "vitest";
import { generateDiscordKeys } from "../../dev/signers/discord.ts";
import { DISCORD_FAKE_BOT } from "../../dev/fakes/discord/messages.ts";
import { gatewayDispatch, ingestRetries } from "../../functions/discord-gateway-feed.ts";
import { runtimeFor } from "../../lib/runtime.ts";
import { memoryGatewayStorage } from "../support/gateway-storage.ts";
import fixture from "../fixtures/platforms/discord/interactions-components.json";
import { askInteraction, discordCalls, snowflake } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { prodTimingSuite } from "../support/prod-timing.ts";
import { createCalls, toolServerCalls, toolSettings } from "../support/tools.ts";
import { eventually, pumpJobsDuringSuite, settle, suiteEnv, type TestEnv } from "../support/worker.ts";

const GUILD = "310000000000000078";
const ASKER = "210000000000000078";
const STRANGER = "210000000000000079";
const keys = await generateDiscordKeys();
const discordSettings = {
  DISCORD_PUBLIC_KEY: keys.publicKeyHex,
  DISCORD_BOT_TOKEN: "test-discord-bot-token",
  ...toolSettings("lookup_ticket,create_ticket"),
};
const env = suiteEnv("buttonsdiscord", discordSettings);
pumpJobsDuringSuite(env, "buttonsdiscord", { deliverEach: 2 });

let seq = 0;
const newChannel = () => `43${String(Date.now()).slice(-10)}${String(++seq).padStart(4, "0")}`;
interface PressPayload {
  member: { user: Record<string, unknown> };
  message: Record<string, unknown>;
  data: { custom_id: string };
}
const pressCase = fixture.cases.find((c) => c.name.includes("Parley's Approve"))!.payload as unknown as PressPayload;

interface Message {
  id: string;
  content: string;
  flags?: number;
  components?: { type: number; components: { custom_id: string; style: number; label: string }[] }[];
}

/** `/ask` in a new channel; the question's message id, its token's interaction and the call's idempotency key. */
async function ask(testEnv: TestEnv, title: string) {
  const channelId = newChannel();
  const interaction = askInteraction(
    { guildId: GUILD, channelId },
    { id: ASKER, name: "Alice" },
    `create_ticket {"title": "${title}"}`,
  );
  expect((await interactAsDiscord(testEnv, keys, interaction)).status).toBe(200);
  const api = String(testEnv.DISCORD_API_BASE_URL);
  const [asked] = await eventually(
    async () => {
      const calls = await discordCalls(api, { token: interaction.token, route: "edit_original" });
      return calls.length > 0 && calls;
    },
    15_000,
    "the question",
  );
  return { channelId, questionId: String(asked!.id) };
}

async function message(testEnv: TestEnv, id: string): Promise<Message> {
  const origin = String(testEnv.DISCORD_API_BASE_URL).replace(/\/api\/v10$/, "");
  const [stored] = (await (await fetch(`${origin}/__messages?id=${id}`)).json()) as { message: Message }[];
  return stored!.message;
}

/** The question once its buttons are on. */
const withButtons = (testEnv: TestEnv, id: string) =>
  eventually(
    async () => {
      const shown = await message(testEnv, id);
      return (shown.components?.length ?? 0) > 0 && shown;
    },
    15_000,
    "the question's buttons",
  );

/** The line that replaced the buttons. */
const outcome = (testEnv: TestEnv, id: string) =>
  eventually(
    async () => {
      const shown = await message(testEnv, id);
      return shown.components?.length === 0 && shown.content.split("\n").at(-1);
    },
    15_000,
    "the outcome on the question",
  );

/** The docs' press, by `user` on `customId` of message `questionId` in `channelId`, as Discord sends it. */
function pressBody(channelId: string, questionId: string, user: string, customId: string): string {
  const press = structuredClone(pressCase);
  Object.assign(press, {
    id: snowflake(),
    token: `press${snowflake()}${"x".repeat(40)}`,
    guild_id: GUILD,
    channel_id: channelId,
  });
  Object.assign(press.member.user, { id: user, username: user === ASKER ? "alice" : "mallory" });
  Object.assign(press.message, { id: questionId, channel_id: channelId });
  press.data.custom_id = customId;
  return JSON.stringify(press);
}

/** Sends `body` (the same bytes each time: a redelivery); the answers. */
async function press(testEnv: TestEnv, body: string, times = 1): Promise<{ type: number; data?: Message }[]> {
  const answers = [];
  for (let i = 0; i < times; i++) {
    const res = await interactAsDiscord(testEnv, keys, body);
    expect(res.status).toBe(200);
    answers.push((await res.json()) as { type: number; data?: Message });
  }
  return answers;
}

const channelPosts = (testEnv: TestEnv, channelId: string) =>
  discordCalls(String(testEnv.DISCORD_API_BASE_URL), { route: "channel_message", channelId });

describe("a confirm tool's buttons on Discord", () => {
  it("shows Approve and Cancel; runs the call once on the asker's press, never on a stranger's", async () => {
    const title = `Discord buttons ${newChannel()}`;
    const { channelId, questionId } = await ask(env, title);
    const asked = await withButtons(env, questionId);
    expect(asked.content).toContain("⚠️ Approval needed: may I run create_ticket");
    expect(asked.content).toContain("can press Approve or Cancel (or react ✅ or ❌)");
    expect(asked.components![0]!.components.map((b) => [b.custom_id, b.style, b.label])).toEqual([
      ["parley_approval:approve", 3, "Approve"],
      ["parley_approval:cancel", 4, "Cancel"],
    ]);

    const [refused] = await press(env, pressBody(channelId, questionId, STRANGER, "parley_approval:approve"));
    expect(refused).toEqual({
      type: 4,
      data: expect.objectContaining({ content: `Only <@${ASKER}> can approve this.`, flags: 64 }),
    });
    await settle(1_500);
    expect((await message(env, questionId)).components).toHaveLength(1);
    expect(await createCalls(title)).toEqual([]);

    // A double click (two presses), then Discord's redelivery of the second (the same body again).
    const [first] = await press(env, pressBody(channelId, questionId, ASKER, "parley_approval:approve"));
    const repeats = await press(env, pressBody(channelId, questionId, ASKER, "parley_approval:approve"), 2);
    expect(first).toEqual({ type: 6 });
    for (const repeat of repeats) expect(repeat.data?.flags).toBe(64);
    expect(await outcome(env, questionId)).toBe(`✅ Approved by <@${ASKER}> — running…`);
    const [done] = await eventually(
      async () => (await channelPosts(env, channelId)).length > 0 && channelPosts(env, channelId),
      15_000,
      "the result",
    );
    expect(done!.content).toMatch(/^✅ Done: create_ticket: Created ticket/);
    await settle(1_500);
    expect(await channelPosts(env, channelId)).toHaveLength(1);
    expect(await createCalls(title)).toEqual([1]);
    const [key] = Object.entries((await toolServerCalls()).createTitles).find(([, t]) => t === title)!;
    expect((await toolServerCalls()).byKey[key]).toBe(1);

    // A later Cancel is told it is settled and changes nothing.
    const [late] = await press(env, pressBody(channelId, questionId, ASKER, "parley_approval:cancel"));
    expect(late!.data?.content).toBe("This question is settled: its outcome is on it.");
    await settle(1_000);
    expect(await channelPosts(env, channelId)).toHaveLength(1);
    expect(await createCalls(title)).toEqual([1]);
  });

  it("cancels on the asker's Cancel, once, and never calls the tool", async () => {
    const title = `Discord cancelled ${newChannel()}`;
    const { channelId, questionId } = await ask(env, title);
    await withButtons(env, questionId);
    const body = pressBody(channelId, questionId, ASKER, "parley_approval:cancel");
    await press(env, body, 2);
    expect(await outcome(env, questionId)).toBe(`❌ Cancelled by <@${ASKER}>`);
    await press(env, pressBody(channelId, questionId, ASKER, "parley_approval:approve"));
    const [cancelled] = await eventually(
      async () => (await channelPosts(env, channelId)).length > 0 && channelPosts(env, channelId),
      15_000,
      "the cancellation",
    );
    expect(cancelled!.content).toBe("❌ Cancelled: create_ticket was not run (❌).");
    await settle(1_500);
    expect(await channelPosts(env, channelId)).toHaveLength(1);
    expect(await createCalls(title)).toEqual([]);
  });

  // bench:chaos seed 2's sequence (docs/benchmarks.md): a stranger's Approve first, then the asker's ✅ on the question.
  it("runs the call once on the asker's ✅ through the Gateway after a stranger's press was refused", async () => {
    const title = `Discord stranger then ✅ ${newChannel()}`;
    const { channelId, questionId } = await ask(env, title);
    await withButtons(env, questionId);
    const [refused] = await press(env, pressBody(channelId, questionId, STRANGER, "parley_approval:approve"));
    expect(refused!.data?.content).toBe(`Only <@${ASKER}> can approve this.`);
    const storage = memoryGatewayStorage(env);
    const dispatch = gatewayDispatch(runtimeFor(env), ingestRetries(env, storage), storage.botRoles);
    const reaction = {
      ...{ user_id: ASKER, channel_id: channelId, message_id: questionId, guild_id: GUILD },
      message_author_id: DISCORD_FAKE_BOT.userId,
      emoji: { id: null, name: "✅" },
      burst: false,
      type: 0,
    };
    await dispatch("MESSAGE_REACTION_ADD", reaction, DISCORD_FAKE_BOT.userId);
    expect(await outcome(env, questionId)).toBe(`✅ Approved by <@${ASKER}> — running…`);
    await eventually(async () => (await channelPosts(env, channelId)).length === 1, 15_000, "the result");
    await settle(1_500);
    expect(await createCalls(title)).toEqual([1]);
    expect(await storage.pending.all()).toEqual([]);
  });

  it("puts the buttons on a channel answer too (a Gateway message), edited with the bot's token", async () => {
    const title = `Discord channel buttons ${newChannel()}`;
    const channelId = newChannel();
    const storage = memoryGatewayStorage(env);
    const dispatch = gatewayDispatch(runtimeFor(env), ingestRetries(env, storage), storage.botRoles);
    const said = {
      id: snowflake(),
      channel_id: channelId,
      guild_id: GUILD,
      type: 0,
      content: `<@${DISCORD_FAKE_BOT.userId}> create_ticket {"title": "${title}"}`,
      timestamp: new Date().toISOString(),
      author: { id: ASKER, username: "alice", global_name: "Alice" },
      member: { nick: null, roles: [] },
      mentions: [{ id: DISCORD_FAKE_BOT.userId, username: DISCORD_FAKE_BOT.username }],
      mention_roles: [],
      attachments: [],
    };
    await dispatch("MESSAGE_CREATE", said, DISCORD_FAKE_BOT.userId);
    const [asked] = await eventually(
      async () => (await channelPosts(env, channelId)).length > 0 && channelPosts(env, channelId),
      15_000,
      "the question",
    );
    const questionId = String(asked!.id);
    expect((await withButtons(env, questionId)).components).toHaveLength(1);
    const [first] = await press(env, pressBody(channelId, questionId, ASKER, "parley_approval:approve"));
    expect(first).toEqual({ type: 6 });
    expect(await outcome(env, questionId)).toBe(`✅ Approved by <@${ASKER}> — running…`);
    await eventually(async () => (await channelPosts(env, channelId)).length === 2, 15_000, "the result");
    expect(await createCalls(title)).toEqual([1]);
  });

  it("refuses a bad signature (401) and a press that is not Discord's shape (400)", async () => {
    const body = pressBody(newChannel(), snowflake(), ASKER, "parley_approval:approve");
    expect((await interactAsDiscord(env, keys, body, { signature: "0".repeat(128) })).status).toBe(401);
    const { message: _message, ...withoutMessage } = JSON.parse(body) as Record<string, unknown>;
    expect((await interactAsDiscord(env, keys, withoutMessage)).status).toBe(400);
  });
});

describe("a confirm tool's buttons on Discord at production timing", () => {
  const kit = prodTimingSuite("buttonsdiscordtiming", discordSettings);
  pumpJobsDuringSuite(kit.env, "buttonsdiscordtiming");

  it("answers a press within 3 s, gives way to the expiry, and a press after it runs nothing", async () => {
    const title = `Discord too late ${newChannel()}`;
    const { channelId, questionId } = await ask(kit.env, title);
    await kit.deliveriesSettled();
    await withButtons(kit.env, questionId);
    const started = Date.now();
    const [stranger] = await press(kit.env, pressBody(channelId, questionId, STRANGER, "parley_approval:approve"));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(stranger!.data?.flags).toBe(64);
    await kit.timePasses(15 * 60_000 + 10_000);
    expect(await outcome(kit.env, questionId)).toBe("⌛ Nobody approved this in time: nothing was run.");
    const [late] = await press(kit.env, pressBody(channelId, questionId, ASKER, "parley_approval:approve"));
    expect(late!.data?.content).toBe("This question is settled: its outcome is on it.");
    await kit.deliveriesSettled();
    await kit.timePasses(60_000);
    await settle(1_000);
    expect(await channelPosts(kit.env, channelId)).toHaveLength(1);
    expect(await createCalls(title)).toEqual([]);
  });
});
