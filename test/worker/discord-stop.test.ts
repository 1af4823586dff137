/**
 * @module
 * Stop on a Discord answer as it is written (docs/platforms/discord.md, "Stop"): an `/ask` answer, edited as it
 * grows once a second (production timing), carries a Stop button (type 2, danger style) on its progress edits. A
 * press is a MESSAGE_COMPONENT interaction (type 3) signed as every interaction is: the asker's is answered with a
 * deferred update (type 6) and ends the answer within one more edit, the message keeping what was written with
 * "(stopped by …)" and its button row emptied; a double click or Discord's redelivery of the press is answered the
 * same and stops nothing more; a stranger's is told privately (type 4, flag 64) who can stop it and changes nothing;
 * a member who may manage the channel (Manage Channels, as for `/parley`) may stop it too. The press is the docs'
 * button interaction (test/fixtures/platforms/discord/interactions-components.json).
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { generateDiscordKeys } from "../../dev/signers/discord.ts";
import { ConversationStore } from "../../lib/conversation/store.ts";
import fixture from "../fixtures/platforms/discord/interactions-components.json";
import { askInteraction, discordCalls, snowflake } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { eventually, pumpJobsDuringSuite, settle, suiteEnv } from "../support/worker.ts";

const SUITE = "discordstop";
const GUILD = "310000000000000098";
const ASKER = { id: "210000000000000098", name: "Alice" };
const STRANGER = "210000000000000099";
const MODERATOR = "210000000000000097";
/** Discord's permission bits: View Channel alone, and Manage Channels. */
const VIEW_CHANNEL = String(1n << 10n);
const MANAGE_CHANNELS = String(1n << 4n);
/** About ten seconds of answer, shown growing once a second. */
const PACE = "[[local-model tokens=400 tps=40 first_ms=100]]";
const keys = await generateDiscordKeys();
const env = suiteEnv(SUITE, {
  DISCORD_PUBLIC_KEY: keys.publicKeyHex,
  DISCORD_BOT_TOKEN: "test-discord-bot-token",
  STREAMING: "true",
});
pumpJobsDuringSuite(env, SUITE);
const store = new ConversationStore(
  new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) }),
  { prefix: `t-${SUITE}`, ttlSeconds: () => 120, maxMessages: 200 },
);

interface Button {
  type: number;
  custom_id: string;
  style: number;
  label: string;
}
interface Message {
  id: string;
  content: string;
  components?: { type: number; components: Button[] }[];
}
interface PressPayload {
  member: { user: Record<string, unknown>; permissions: string };
  message: Record<string, unknown>;
  data: { custom_id: string };
}
const pressCase = fixture.cases.find((c) => c.name.includes("Parley's Approve"))!.payload as unknown as PressPayload;

let seq = 0;
const newChannel = () => `44${String(Date.now()).slice(-10)}${String(++seq).padStart(4, "0")}`;

async function message(id: string): Promise<Message> {
  const origin = String(env.DISCORD_API_BASE_URL).replace(/\/api\/v10$/, "");
  const [stored] = (await (await fetch(`${origin}/__messages?id=${id}`)).json()) as { message: Message }[];
  return stored!.message;
}

/** `/ask` in a new channel; the answer's message id once it shows growing with its Stop button. */
async function ask(): Promise<{ channelId: string; answerId: string; stop: Button }> {
  const channelId = newChannel();
  const interaction = askInteraction({ guildId: GUILD, channelId }, ASKER, `tell me about rollbacks ${PACE}`);
  expect((await interactAsDiscord(env, keys, interaction)).status).toBe(200);
  const api = String(env.DISCORD_API_BASE_URL);
  const answerId = await eventually(
    async () => {
      const [edit] = await discordCalls(api, { token: interaction.token, route: "edit_original" });
      return edit && String(edit.id);
    },
    15_000,
    "the answer's first words",
  );
  const stop = await eventually(async () => (await message(answerId)).components?.[0]?.components[0], 15_000, "Stop");
  return { channelId, answerId, stop };
}

/** A press of `customId` on message `answerId` by `user` with `permissions` there, as Discord sends it. */
function pressBody(channelId: string, answerId: string, user: string, permissions: string, customId: string): string {
  const press = structuredClone(pressCase);
  Object.assign(press, { id: snowflake(), token: `press${snowflake()}${"x".repeat(40)}`, guild_id: GUILD });
  Object.assign(press, { channel_id: channelId });
  Object.assign(press.member.user, { id: user, username: user === ASKER.id ? "alice" : `member${user.slice(-2)}` });
  Object.assign(press.member, { permissions, nick: user === ASKER.id ? ASKER.name : null });
  Object.assign(press.message, { id: answerId, channel_id: channelId });
  press.data.custom_id = customId;
  return JSON.stringify(press);
}

async function press(body: string): Promise<{ type: number; data?: { content?: string; flags?: number } }> {
  const res = await interactAsDiscord(env, keys, body);
  expect(res.status).toBe(200);
  return (await res.json()) as { type: number; data?: { content?: string; flags?: number } };
}

/** The answer once it no longer grows: its button row empty. */
const finished = (answerId: string) =>
  eventually(
    async () => {
      const m = await message(answerId);
      return m.components?.length === 0 && m;
    },
    30_000,
    "the finished answer",
  );

const recorded = (channelId: string) =>
  eventually(
    async () =>
      (await store.load({ platform: "discord", tenant: GUILD, channel: channelId }))?.recent.find(
        (m) => m.role === "assistant",
      )?.text,
    20_000,
    "the recorded answer",
  );

describe("Stop on a Discord answer as it is written", () => {
  it("shows a Stop button while it grows, and ends it once when the asker presses it, however often", async () => {
    const { channelId, answerId, stop } = await ask();
    expect(stop).toMatchObject({ type: 2, style: 4, label: "Stop" });
    expect(stop.custom_id.length).toBeLessThanOrEqual(100);
    const body = pressBody(channelId, answerId, ASKER.id, VIEW_CHANNEL, stop.custom_id);
    // A double click, then Discord's redelivery of the same press: each acknowledged with a deferred update.
    expect(await press(body)).toEqual({ type: 6 });
    expect(await press(pressBody(channelId, answerId, ASKER.id, VIEW_CHANNEL, stop.custom_id))).toEqual({ type: 6 });
    expect(await press(body)).toEqual({ type: 6 });
    const done = await finished(answerId);
    expect(done.content).toMatch(/\(stopped by Alice\)_?\s*$/);
    const answer = await recorded(channelId);
    expect(answer).toMatch(/\(stopped by Alice\)_$/);
    // Well short of the ten seconds of answer the model would have written.
    expect(answer.length).toBeLessThan(1_500);
    await settle(2_000);
    expect((await message(answerId)).content).toBe(done.content);
  });

  it("changes nothing when a stranger presses it, and tells them alone who can", async () => {
    const { channelId, answerId, stop } = await ask();
    const refused = await press(pressBody(channelId, answerId, STRANGER, VIEW_CHANNEL, stop.custom_id));
    expect(refused).toEqual({
      type: 4,
      data: expect.objectContaining({ content: `Only <@${ASKER.id}> or an admin can stop this answer.`, flags: 64 }),
    });
    const done = await finished(answerId);
    expect(done.content).not.toContain("stopped by");
    expect(await recorded(channelId)).not.toContain("stopped by");
  });

  it("ends it when a member who may manage the channel presses it", async () => {
    const { channelId, answerId, stop } = await ask();
    expect(await press(pressBody(channelId, answerId, MODERATOR, MANAGE_CHANNELS, stop.custom_id))).toEqual({
      type: 6,
    });
    const done = await finished(answerId);
    expect(done.content).toMatch(/\(stopped by member97\)_?\s*$/);
  });
});
