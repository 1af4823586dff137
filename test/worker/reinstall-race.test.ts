/**
 * Uninstall and reinstall, at production timing: an uninstall's cleanup deletes only the installation it was
 * published for (a retry minutes later leaves a reinstall and its conversations alone), a second uninstall after
 * a reinstall gets a cleanup of its own, an org-wide install leaves nothing behind, an org's lost workspaces go
 * while the org's install stays, and a token refresh never writes an installation back after its cleanup.
 */
import { describe, expect, it } from "vitest";
import { installationKey } from "../../lib/keys.ts";
import { runtimeFor } from "../../lib/runtime.ts";
import { runTenantCleanup } from "../../lib/jobs/tenant-cleanup.ts";
import { installedToken } from "../../lib/tenants/token.ts";
import { scriptFault } from "../support/fault-control.ts";
import { prodTimingSuite, QSTASH_RETRY_DELAYS_MS } from "../support/prod-timing.ts";
import { INSTALLABLE, installWorkspace, teamPosts } from "../support/slack-install.ts";
import { BOT_USER_ID, distinctSlackTs, signedSlackRequest, slackMessageEvent } from "../support/slack.ts";
import { callWorker, eventually, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "reinstall";
const PREFIX = `t-${SUITE}`;
const CLEANUP_PATH = `/t/${SUITE}/jobs/cleanup`;
const [FIRST_RETRY_MS] = QSTASH_RETRY_DELAYS_MS;
const kit = prodTimingSuite(SUITE, INSTALLABLE);

pumpJobsDuringSuite(kit.env, SUITE);

let seq = 0;
const unique = (tag: string) => `${tag}${Date.now().toString(36).toUpperCase()}${++seq}`;

async function mention(team: string, channel: string, text: string, enterprise?: string): Promise<void> {
  const event = JSON.parse(
    slackMessageEvent({ team, channel, user: "UALICE", text: `<@${BOT_USER_ID}> ${text}`, ts: distinctSlackTs() }).body,
  ) as Record<string, unknown>;
  if (enterprise) {
    // An org-wide install's delivery: the org on the envelope, and an authorization for the org's install.
    event.enterprise_id = enterprise;
    event.authorizations = [
      { enterprise_id: enterprise, team_id: null, user_id: BOT_USER_ID, is_bot: true, is_enterprise_install: true },
    ];
  }
  expect((await callWorker(kit.env, await signedSlackRequest(JSON.stringify(event)))).status).toBe(200);
}

/** Slack's lifecycle event for `team` (app_uninstalled carries no authorizations: the installation is gone). */
async function lifecycle(team: string, event: object, extra: object = {}): Promise<void> {
  const body = JSON.stringify({
    token: "x",
    team_id: team,
    api_app_id: "A0PARLEY",
    event,
    type: "event_callback",
    event_id: unique("Ev"),
    event_time: 1,
    ...extra,
  });
  expect((await callWorker(kit.env, await signedSlackRequest(body))).status).toBe(200);
}

async function keysOf(tenant: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await kit.redis.scan(cursor, { match: `${PREFIX}:*slack|${tenant}*`, count: 500 });
    keys.push(...batch);
    cursor = String(next);
  } while (cursor !== "0");
  return keys.sort();
}

const installed = async (tenant: string) =>
  (await kit.redis.exists(installationKey(PREFIX, { platform: "slack", tenant }))) === 1;

async function answeredIn(channel: string, count: number): Promise<void> {
  await kit.deliveriesSettled();
  await eventually(async () => (await teamPosts(channel)).length === count, 15_000, `answer ${count} in ${channel}`);
}

describe("an uninstall's cleanup", () => {
  it("retried by QStash minutes later leaves a reinstall made meanwhile, and its conversation, alone", async () => {
    const team = { id: unique("TRE"), name: "Returning" };
    await installWorkspace(kit.env, team);
    const channel = unique("CRE");
    await mention(team.id, channel, "first question");
    await answeredIn(channel, 1);

    // The cleanup runs, and QStash loses its answer: it delivers it again 12 s later, from cursor "0".
    await scriptFault(kit.qstashUrl, { fault: "lose_answer", path: CLEANUP_PATH });
    await lifecycle(team.id, { type: "app_uninstalled" });
    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([{ path: CLEANUP_PATH, outcome: "retry" }]);
    expect(await installed(team.id)).toBe(false);

    await installWorkspace(kit.env, team);
    await mention(team.id, channel, "back again");
    await answeredIn(channel, 2);
    const afterReinstall = await keysOf(team.id);

    expect((await kit.timePasses(FIRST_RETRY_MS)).deliveries).toMatchObject([
      { path: CLEANUP_PATH, status: 200, outcome: "done" },
    ]);
    expect(await installed(team.id)).toBe(true);
    expect(await keysOf(team.id)).toEqual(expect.arrayContaining(afterReinstall));
    await mention(team.id, channel, "still with me?");
    await answeredIn(channel, 3);
  });

  it("of a second uninstall after a reinstall runs too (not taken for the first one's)", async () => {
    const team = { id: unique("TTWICE"), name: "Twice" };
    await installWorkspace(kit.env, team);
    await lifecycle(team.id, { type: "app_uninstalled" });
    await lifecycle(team.id, { type: "tokens_revoked", tokens: { bot: ["UBOT"] } });
    const first = await kit.deliveriesSettled();
    // app_uninstalled and tokens_revoked of one install make one cleanup.
    expect(first.deliveries.filter((d) => d.path === CLEANUP_PATH)).toHaveLength(1);

    await installWorkspace(kit.env, team);
    const channel = unique("CTWICE");
    await mention(team.id, channel, "hello again");
    await answeredIn(channel, 1);
    expect((await keysOf(team.id)).length).toBeGreaterThan(1);
    await lifecycle(team.id, { type: "app_uninstalled" });
    await kit.deliveriesSettled();
    expect(await keysOf(team.id)).toEqual([]);
  });

  it("of an org-wide install, named by one of its workspaces, removes the org's installation and every workspace's keys", async () => {
    const org = { id: unique("EORG"), name: "Org", orgWide: true };
    await installWorkspace(kit.env, org);
    const workspace = unique("TWS");
    const channel = unique("CORG");
    await mention(workspace, channel, "hi from the org", org.id);
    await answeredIn(channel, 1);
    expect((await keysOf(`${org.id}:${workspace}`)).length).toBeGreaterThan(1);

    await lifecycle(workspace, { type: "app_uninstalled" }, { enterprise_id: org.id });
    await kit.deliveriesSettled();
    expect(await installed(org.id)).toBe(false);
    expect(await keysOf(org.id)).toEqual([]);
  });
});

describe("team_access_revoked", () => {
  it("removes the lost workspace's keys; the org's install and its other workspaces stay", async () => {
    const org = { id: unique("EACC"), name: "Org", orgWide: true };
    await installWorkspace(kit.env, org);
    const [lost, kept] = [unique("TLOST"), unique("TKEPT")];
    const [lostChannel, keptChannel] = [unique("CLOST"), unique("CKEPT")];
    await mention(lost, lostChannel, "hello", org.id);
    await mention(kept, keptChannel, "hello", org.id);
    await answeredIn(lostChannel, 1);
    await answeredIn(keptChannel, 1);
    const keptKeys = await keysOf(`${org.id}:${kept}`);

    await lifecycle(
      lost,
      { type: "team_access_revoked", team_ids: [lost], event_ts: "1.2" },
      { enterprise_id: org.id },
    );
    await kit.deliveriesSettled();
    expect(await keysOf(`${org.id}:${lost}`)).toEqual([]);
    expect(await keysOf(`${org.id}:${kept}`)).toEqual(keptKeys);
    expect(await installed(org.id)).toBe(true);
  });
});

describe("a token refresh racing an uninstall", () => {
  it("never writes the installation back after the cleanup deleted it", async () => {
    const team = unique("TRACE");
    const rt = runtimeFor(kit.env);
    await rt.installations.put("slack", {
      tenant: team,
      botToken: "xoxe.xoxb-old",
      botUserId: "UBOT",
      scopes: [],
      installedAt: 0,
      installId: "first",
      refreshToken: "xoxe-1-old",
      expiresAt: rt.now() + 1_000,
    });
    const refreshed = installedToken(rt, "slack", team, async () => {
      // Slack answers the refresh while the uninstall's cleanup runs.
      await runTenantCleanup(rt, { platform: "slack", tenant: team, cursor: "0", installId: "first" });
      return { botToken: "xoxe.xoxb-new", refreshToken: "xoxe-1-new", expiresAt: rt.now() + 43_200_000 };
    });
    await expect(refreshed).rejects.toMatchObject({ name: "GiveUp", code: "not_installed" });
    expect(await installed(team)).toBe(false);
  });
});
