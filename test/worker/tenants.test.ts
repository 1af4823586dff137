/**
 * Installable in many workspaces: installs through the real routes against the Slack fake, answers posted with
 * each workspace's own token, state forgery and replay refused, unknown workspaces ignored.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, inject, it, vi } from "vitest";
import { gatewayDispatch } from "../../functions/discord-gateway-feed.ts";
import { conversationKeys, factsKey, optOutKey } from "../../lib/keys.ts";
import { RecallIndex } from "../../lib/memory/recall/client.ts";
import { recallNamespace } from "../../lib/memory/recall/namespace.ts";
import { runtimeFor } from "../../lib/runtime.ts";
import { memoryBotRoles } from "../support/gateway-storage.ts";
import { replyPrompt, storedFacts } from "../support/memory.ts";
import {
  approveInstall,
  callback,
  INSTALLABLE,
  installWorkspace,
  slackFake,
  startInstall,
  teamPosts,
} from "../support/slack-install.ts";
import { BOT_USER_ID, distinctSlackTs, signedSlackRequest, slackMessageEvent } from "../support/slack.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle, suiteEnv } from "../support/worker.ts";

const SUITE = "tenants";
const PREFIX = `t-${SUITE}`;
const ADMIN_TOKEN = "admin-token-for-tenant-tests-0123456789";
const VECTOR = { url: inject("vectorRestUrl"), token: inject("vectorRestToken") };
const env = suiteEnv(SUITE, {
  ...INSTALLABLE,
  MEMORY_ENABLED: "true",
  ADMIN_TOKEN,
  RECALL_ENABLED: "true",
  UPSTASH_VECTOR_REST_URL: VECTOR.url,
  UPSTASH_VECTOR_REST_TOKEN: VECTOR.token,
});
const recallNamespaces = () => new RecallIndex(VECTOR).namespaces();
const slackNamespace = (team: string) => recallNamespace(PREFIX, { platform: "slack", tenant: team });
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });

pumpJobsDuringSuite(env, SUITE);

let seq = 0;
function newTeam(name: string): { id: string; name: string } {
  seq += 1;
  return { id: `T${name.toUpperCase()}${Date.now().toString(36).toUpperCase()}${seq}`, name };
}
function newChannel(): string {
  seq += 1;
  return `CSHARED${Date.now().toString(36).toUpperCase()}${seq}`;
}

async function mention(team: string, channel: string, user: string, text: string): Promise<Response> {
  const event = slackMessageEvent({ team, channel, user, text: `<@${BOT_USER_ID}> ${text}`, ts: distinctSlackTs() });
  return callWorker(env, await signedSlackRequest(event.body));
}

async function keysOf(team: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, { match: `${PREFIX}:*slack|${team}*`, count: 500 });
    keys.push(...batch);
    cursor = String(next);
  } while (cursor !== "0");
  return keys.sort();
}

describe("two workspaces with the same channel and user ids", () => {
  it("keep separate conversations and facts, and each answer goes out with its own workspace's token", async () => {
    const acme = newTeam("Acme");
    const globex = newTeam("Globex");
    await installWorkspace(env, acme);
    await installWorkspace(env, globex);
    const channel = newChannel();
    const marker = `m${seq}`;

    expect(
      (await mention(acme.id, channel, "USAME", `I'm training for a marathon in April. acme-${marker}`)).status,
    ).toBe(200);
    expect(
      (await mention(globex.id, channel, "USAME", `I'm learning to play the violin. globex-${marker}`)).status,
    ).toBe(200);

    const posts = await eventually(
      async () => {
        const all = await teamPosts(channel);
        return all.length >= 2 && all;
      },
      20_000,
      "both answers",
    );
    expect(posts.map((p) => p.team).sort()).toEqual([acme.id, globex.id].sort());

    // Each prompt holds its own workspace's message only.
    const acmePrompt = JSON.stringify((await replyPrompt(`acme-${marker}`)).messages);
    const globexPrompt = JSON.stringify((await replyPrompt(`globex-${marker}`)).messages);
    expect(acmePrompt).not.toContain(`globex-${marker}`);
    expect(globexPrompt).not.toContain(`acme-${marker}`);

    const acmeFacts = await eventually(
      async () => (await storedFacts(redis, PREFIX, { platform: "slack", tenant: acme.id }, "USAME")) || false,
      15_000,
      "Acme's fact",
    );
    const globexFacts = await eventually(
      async () => (await storedFacts(redis, PREFIX, { platform: "slack", tenant: globex.id }, "USAME")) || false,
      15_000,
      "Globex's fact",
    );
    expect(acmeFacts).toContain("marathon");
    expect(acmeFacts).not.toContain("violin");
    expect(globexFacts).toContain("violin");
    expect(globexFacts).not.toContain("marathon");
  });

  it("stores the tokens encrypted: no token is readable in Redis", async () => {
    const team = newTeam("Sealed");
    await installWorkspace(env, team);
    const [installKey] = await keysOf(team.id);
    expect(installKey).toBe(`${PREFIX}:install:slack|${team.id}`);
    const stored = String(await redis.get(installKey!));
    expect(stored).toMatch(/^v2\.[0-9a-f]+\./);
    expect(stored).not.toContain("xoxb-");
    const view = await callWorker(
      env,
      new Request(`https://bot.test/admin/tenants/slack/${team.id}`, {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      }),
    );
    const shown = await view.text();
    expect(JSON.parse(shown)).toMatchObject({
      installation: { teamName: "Sealed", scopes: expect.arrayContaining(["chat:write"]) },
    });
    expect(shown).not.toContain("xox");
  });
});

describe("an event from a workspace without an installation", () => {
  it("is acknowledged, and nothing is recorded or posted", async () => {
    const stranger = newTeam("Stranger");
    const channel = newChannel();
    const res = await mention(stranger.id, channel, "USTRANGER", "hello?");
    expect(res.status).toBe(200);
    await settle(1_500);
    expect(await teamPosts(channel)).toEqual([]);
    expect(await keysOf(stranger.id)).toEqual([]);
  });
});

describe("the install state", () => {
  it("refuses a forged state, a replayed one, and one carried to another browser", async () => {
    const team = newTeam("State");
    const start = await startInstall(env);
    const code = await approveInstall(team, start.redirectUri);

    const forged = await callback(env, { code, state: `${start.state.slice(0, -4)}AAAA` }, start.cookie);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("not issued by this app");

    const otherBrowser = await callback(env, { code, state: start.state });
    expect(otherBrowser.status).toBe(400);
    await otherBrowser.body?.cancel();
    // The state was taken by that attempt: the rightful browser must start again, the code is never exchanged.
    const afterSteal = await callback(env, { code, state: start.state }, start.cookie);
    expect(afterSteal.status).toBe(400);
    expect(await afterSteal.text()).toContain("expired or was already used");

    const again = await startInstall(env);
    const ok = await callback(
      env,
      { code: await approveInstall(team, again.redirectUri), state: again.state },
      again.cookie,
    );
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("State");
    const replayed = await callback(env, { code, state: again.state }, again.cookie);
    expect(replayed.status).toBe(400);
    await replayed.body?.cancel();
    expect(await keysOf(team.id)).toEqual([`${PREFIX}:install:slack|${team.id}`]);
  });
});

describe("token rotation", () => {
  it("refreshes an expired token once when 20 jobs need it at the same time, and every job answers", async () => {
    const team = newTeam("Rotating");
    await slackFake("/__config", { oauth: { tokenRotation: true, expiresIn: 1 } });
    try {
      await installWorkspace(env, team);
      // Later tokens live the usual 12 hours; the installed one is expired by the time the jobs run.
      await slackFake("/__config", { oauth: { expiresIn: 43_200 } });
      await settle(1_100);
      const before = (await slackFake<{ oauth: { refreshes: number } }>("/__stats")).oauth.refreshes;
      const channels = Array.from({ length: 20 }, () => newChannel());
      const answers = await Promise.all(
        channels.map((channel, i) => mention(team.id, channel, `UROT${i}`, `question ${i}`)),
      );
      expect(answers.map((r) => r.status)).toEqual(channels.map(() => 200));
      for (const channel of channels) {
        await eventually(async () => (await teamPosts(channel)).length === 1, 20_000, `the answer in ${channel}`);
      }
      const posts = (await Promise.all(channels.map(teamPosts))).flat();
      expect(posts.every((p) => p.team === team.id)).toBe(true);
      expect((await slackFake<{ oauth: { refreshes: number } }>("/__stats")).oauth.refreshes - before).toBe(1);
    } finally {
      await slackFake("/__config", { oauth: { tokenRotation: false, expiresIn: 43_200 } });
    }
  });
});

describe("a token near its expiry", () => {
  it("is refreshed before it expires; a failed refresh keeps the old token, logged, and the next job refreshes", async () => {
    const team = newTeam("Expiring");
    await slackFake("/__config", { oauth: { tokenRotation: true, expiresIn: 200 } });
    try {
      await installWorkspace(env, team);
      await slackFake("/__config", { oauth: { expiresIn: 43_200 } });
      const refreshes = async () => (await slackFake<{ oauth: { refreshes: number } }>("/__stats")).oauth.refreshes;
      const before = await refreshes();
      await slackFake("/__fail", { fault: "error", path: "/oauth.v2.access", error: "internal_error", times: 1 });
      const logs = vi.spyOn(console, "warn");
      const first = newChannel();
      await mention(team.id, first, "UEXP1", "are you there?");
      await eventually(async () => (await teamPosts(first)).length === 1, 20_000, "the answer with the old token");
      expect(logs.mock.calls.filter((c) => String(c[0]).includes('"event":"token_refresh_failed"'))).toHaveLength(1);
      logs.mockRestore();
      const second = newChannel();
      await mention(team.id, second, "UEXP2", "still there?");
      await eventually(async () => (await teamPosts(second)).length === 1, 20_000, "the answer with the new token");
      expect((await teamPosts(second))[0]!.team).toBe(team.id);
      expect((await refreshes()) - before).toBe(1);
    } finally {
      await slackFake("/__config", { oauth: { tokenRotation: false, expiresIn: 43_200 } });
    }
  });
});

describe("uninstalling", () => {
  async function uninstallEvent(team: string, event: object): Promise<Response> {
    const body = JSON.stringify({
      token: "x",
      team_id: team,
      api_app_id: "A0PARLEY",
      event,
      type: "event_callback",
      event_id: `Ev${seq}${Date.now()}`,
      event_time: 1,
    });
    return callWorker(env, await signedSlackRequest(body));
  }

  it("deletes every key of the workspace, and the other workspace goes on answering", async () => {
    const leaving = newTeam("Leaving");
    const staying = newTeam("Staying");
    await installWorkspace(env, leaving);
    await installWorkspace(env, staying);
    const channel = newChannel();
    await mention(leaving.id, channel, "USAME", "I'm training for a marathon in April.");
    await mention(staying.id, channel, "USAME", "I'm learning to play the violin.");
    await eventually(async () => (await teamPosts(channel)).length === 2, 20_000, "both answers");
    await eventually(
      async () => (await keysOf(leaving.id)).some((k) => k.includes(":facts:")),
      15_000,
      "the leaving workspace's facts",
    );
    expect((await keysOf(leaving.id)).length).toBeGreaterThan(3);
    await eventually(
      async () => (await recallNamespaces()).includes(slackNamespace(leaving.id)),
      15_000,
      "the leaving workspace's recall passages",
    );
    const stayingKeys = await keysOf(staying.id);

    // Slack sends both, in no set order; one cleanup runs.
    expect((await uninstallEvent(leaving.id, { type: "tokens_revoked", tokens: { bot: ["UBOTX"] } })).status).toBe(200);
    expect((await uninstallEvent(leaving.id, { type: "app_uninstalled" })).status).toBe(200);
    await eventually(async () => (await keysOf(leaving.id)).length === 0, 15_000, "every key of the workspace to go");
    expect(await keysOf(staying.id)).toEqual(expect.arrayContaining(stayingKeys));
    expect(await recallNamespaces()).not.toContain(slackNamespace(leaving.id));
    expect(await recallNamespaces()).toContain(slackNamespace(staying.id));

    await mention(leaving.id, channel, "USAME", "still there?");
    await mention(staying.id, channel, "USAME", "what should I practise first?");
    await eventually(
      async () => (await teamPosts(channel)).filter((p) => p.team === staying.id).length === 2,
      20_000,
      "the staying workspace's answer",
    );
    await settle(1_000);
    expect((await teamPosts(channel)).filter((p) => p.team === leaving.id)).toHaveLength(1);
    expect(await keysOf(leaving.id)).toEqual([]);
  });
});

describe("the bot removed from a Discord guild", () => {
  const keysOfGuild = async (guild: string) => (await redis.keys(`${PREFIX}:*discord|${guild}|*`)).sort();
  async function seedGuild(guild: string): Promise<void> {
    const where = { platform: "discord" as const, tenant: guild };
    const conv = conversationKeys(PREFIX, { ...where, channel: "4200" });
    await redis.set(conv.state, "{}", { ex: 600 });
    await redis.zadd(conv.log, { score: 1, member: "m" });
    await redis.set(factsKey(PREFIX, where, "2300"), "[]", { ex: 600 });
    await redis.set(optOutKey(PREFIX, where, "2300"), "1", { ex: 600 });
  }

  it("deletes the guild's keys on GUILD_DELETE, and nothing on an outage's GUILD_DELETE", async () => {
    seq += 1;
    const removed = `3200${Date.now()}${seq}`;
    const outage = `3201${Date.now()}${seq}`;
    await seedGuild(removed);
    await seedGuild(outage);
    const dispatch = gatewayDispatch(runtimeFor(env), { deliver: async () => undefined }, memoryBotRoles());
    await dispatch("GUILD_DELETE", { id: outage, unavailable: true }, "bot");
    await dispatch("GUILD_DELETE", { id: removed }, "bot");
    await eventually(async () => (await keysOfGuild(removed)).length === 0, 15_000, "the guild's keys to go");
    expect(await keysOfGuild(outage)).toHaveLength(4);
  });
});
