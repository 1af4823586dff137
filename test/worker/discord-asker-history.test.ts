/**
 * @module
 * Discord reads history with the bot's permissions, so a mention over the Gateway (which carries no permissions)
 * reads none for a member who may not read it (issue #41, hardening): the job works out the asker's permissions in
 * the channel from the server's roles and the channel's overwrites (Get Guild Member, Get Guild, Get Channel). A
 * member whose role the channel denies Read Message History gets an answer without the earlier talk; a member
 * without that role, in a channel set up the same, gets it; when the lookup fails the answer still goes out,
 * without it.
 */
import { env as envBindings } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCORD_FAKE_BOT } from "../../dev/fakes/discord.ts";
import { DEFAULT_BOT_PERMISSIONS, PERMISSION } from "../../dev/fakes/discord/permissions.ts";
import type { GatewayConnection } from "../../lib/platforms/discord/gateway/connection.ts";
import { discordCalls, gatewaySpeaker } from "../support/discord.ts";
import { scriptFault } from "../support/fault-control.ts";
import { readyGateway } from "../support/gateway-storage.ts";
import { modelRequests } from "../support/model.ts";
import { qstashLaneUrl } from "../support/qstash-clock.ts";
import { eventually, startJobPump, suiteEnv, type JobPump } from "../support/worker.ts";

const SUITE = "discordasker";
const PERSONA = "You are Parley, minding who may read what.";
const env = suiteEnv(SUITE, {
  DISCORD_BOT_TOKEN: "test-discord-bot-token",
  BACKFILL_MESSAGES: "30",
  BOT_PERSONA: PERSONA,
  QSTASH_URL: qstashLaneUrl((envBindings as unknown as Record<string, string>).QSTASH_URL!, SUITE),
});
const CONTROL = String(env.DISCORD_GATEWAY_CONTROL_URL);
const API = String(env.DISCORD_API_BASE_URL);
const FAKE = API.replace(/\/api\/v10$/, "");
const BOT = { id: DISCORD_FAKE_BOT.userId, username: DISCORD_FAKE_BOT.username.toLowerCase() };
const GUILD = "340000000000000041";
/** A role the test channels deny Read Message History. */
const NEWCOMER = "350000000000000041";
const [alice, bob, carol] = [
  { id: "250000000000000411", name: "Alice" },
  { id: "250000000000000412", name: "Bob" },
  { id: "250000000000000413", name: "Carol" },
];
let pump: JobPump;
let connection: GatewayConnection;
let seq = 0;

async function control(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${FAKE}${path}`, { method: "POST", body: JSON.stringify(body) });
  expect(res.ok).toBe(true);
}

beforeAll(async () => {
  pump = startJobPump(env, SUITE);
  connection = await readyGateway(env);
  await control("/__guild", {
    id: GUILD,
    owner_id: "250000000000000410",
    roles: [
      { id: GUILD, permissions: String(DEFAULT_BOT_PERMISSIONS) },
      { id: NEWCOMER, permissions: "0" },
    ],
    members: [
      { user_id: alice.id, roles: [] },
      { user_id: bob.id, roles: [] },
      { user_id: carol.id, roles: [NEWCOMER] },
    ],
  });
});
afterAll(async () => {
  connection.shutdown();
  await pump.stop();
});

/** A text channel whose overwrite denies newcomers Read Message History (they still view it and post). */
async function channelHidingHistoryFromNewcomers(): Promise<string> {
  seq += 1;
  const id = `45${String(Date.now()).slice(-10)}${String(seq).padStart(4, "0")}`;
  await control("/__channel", {
    id,
    type: 0,
    permission_overwrites: [{ id: NEWCOMER, type: 0, allow: "0", deny: String(PERMISSION.READ_MESSAGE_HISTORY) }],
  });
  return id;
}

const say = gatewaySpeaker(CONTROL, GUILD, BOT);
const answered = (channelId: string) =>
  eventually(
    async () => (await discordCalls(API, { route: "channel_message", channelId })).length >= 1,
    20_000,
    "the answer",
  );
const promptOf = async (marker: string) =>
  JSON.stringify((await modelRequests(marker)).find((r) => r.messages[0]?.content.includes(PERSONA))!.messages);

/** Alice's earlier words in a fresh channel, then `asker`'s mention; the answer's prompt. */
async function mentionAfterTalk(asker: { id: string; name: string }, tag: string) {
  const channel = await channelHidingHistoryFromNewcomers();
  await say(channel, alice, `the vault code moved to the blue binder ${tag}-${channel}`);
  await say(channel, asker, `what did we decide? q-${tag}-${channel}`, true);
  await answered(channel);
  return { channel, prompt: await promptOf(`q-${tag}-${channel}`) };
}

describe("a Discord mention reads the channel's history only as its author may", () => {
  it("a member whose role the channel denies Read Message History gets an answer without the earlier talk", async () => {
    const { channel, prompt } = await mentionAfterTalk(carol, "newcomer");
    expect(prompt).not.toContain(`blue binder newcomer-${channel}`);
    expect(await discordCalls(API, { route: "list_messages", channelId: channel })).toHaveLength(0);
    expect(await discordCalls(API, { route: "get_member", guildId: GUILD, id: carol.id })).not.toHaveLength(0);
  });

  it("a member without that role, in a channel set up the same, gets it", async () => {
    const { channel, prompt } = await mentionAfterTalk(bob, "member");
    expect(prompt).toContain(`blue binder member-${channel}`);
  });

  it("when the member lookup fails the answer still goes out, without the earlier talk", async () => {
    await scriptFault(FAKE, {
      fault: "refuse",
      status: 503,
      path: "/get_member",
      bodyContains: `"userId":"${bob.id}"`,
      times: 1,
    } as never);
    const { channel, prompt } = await mentionAfterTalk(bob, "unread");
    expect(prompt).not.toContain(`blue binder unread-${channel}`);
  });
});
