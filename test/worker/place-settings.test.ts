import { beforeAll, describe, expect, it } from "vitest";
import { SLACK_FAKE_DEFAULT_TEAM } from "../../dev/fakes/slack/workspaces.ts";
import { slackHeaders } from "../../dev/signers/slack.ts";
import { generateDiscordKeys, type DiscordSigningKeys } from "../../dev/signers/discord.ts";
import { APPLICATION_ID, snowflake } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { SLACK_SIGNING_SECRET } from "../support/slack.ts";
import { callWorker, SLACK_API_BASE_URL, suiteEnv, type TestEnv } from "../support/worker.ts";

const SUITE = "placeset";
const ADMIN_TOKEN = "admin-token-for-place-settings-0123456789";
let env: TestEnv;
let keys: DiscordSigningKeys;
let seq = 0;

beforeAll(async () => {
  keys = await generateDiscordKeys();
  env = suiteEnv(SUITE, { DISCORD_PUBLIC_KEY: keys.publicKeyHex, ADMIN_TOKEN });
});

const newChannel = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${++seq}`;

/** The slash command's form as Slack posts it (its reference's fields), signed. */
async function slash(channel: string, user: string, text: string, opts: { secret?: string } = {}) {
  const body = new URLSearchParams({
    token: "deprecated-verification-token",
    team_id: "TPLACESET",
    team_domain: "placeset",
    channel_id: channel,
    channel_name: "general",
    user_id: user,
    user_name: user.toLowerCase(),
    command: "/parley",
    text,
    api_app_id: "A0FAKEAPP",
    is_enterprise_install: "false",
    response_url: "https://hooks.slack.com/commands/T1/1/x",
    trigger_id: "1.2.3",
  }).toString();
  const headers = await slackHeaders(opts.secret ?? SLACK_SIGNING_SECRET, body);
  const started = Date.now();
  const res = await callWorker(
    env,
    new Request("https://bot.test/slack/commands", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body,
    }),
  );
  return {
    status: res.status,
    ms: Date.now() - started,
    json: (await res.json()) as { response_type?: string; text?: string },
  };
}

async function roles(spec: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${SLACK_API_BASE_URL.replace(/\/api$/, "")}/__roles`, {
    method: "POST",
    body: JSON.stringify({ team: SLACK_FAKE_DEFAULT_TEAM.id, ...spec }),
  });
  expect(res.status).toBe(200);
}

describe("/parley on Slack", () => {
  it("shows anyone the settings, off by default, and lets only an admin or the channel's creator change them", async () => {
    const channel = newChannel("CPS");
    const status = await slash(channel, "UREADER", "status");
    expect(status.status).toBe(200);
    expect(status.json).toEqual({
      response_type: "ephemeral",
      text: "Initiative: off (eagerness 50). Rescue: off. Feedback: off.",
    });
    expect(status.ms).toBeLessThan(3_000);

    const refused = await slash(channel, "UMEMBER", "initiative on");
    expect(refused.json.text).toMatch(/^Only a workspace or server admin/);
    expect(refused.json.text).toContain("Initiative: off");

    await roles({ admins: ["UADMIN"] });
    expect((await slash(channel, "UADMIN", "initiative on")).json.text).toBe(
      "Done. Initiative: on (eagerness 50). Rescue: off. Feedback: off.",
    );
    await roles({ channel, creator: "UCREATOR" });
    expect((await slash(channel, "UCREATOR", "eagerness 80")).json.text).toBe(
      "Done. Initiative: on (eagerness 80). Rescue: off. Feedback: off.",
    );
    // The creator of one channel is nobody special in another.
    expect((await slash(newChannel("CPS"), "UCREATOR", "initiative on")).json.text).toMatch(/^Only/);
    expect((await slash(channel, "UMEMBER", "status")).json.text).toBe(
      "Initiative: on (eagerness 80). Rescue: off. Feedback: off.",
    );
    expect((await slash(channel, "UADMIN", "rescue on 15")).json.text).toBe(
      "Done. Initiative: on (eagerness 80). Rescue: on (after 15 minutes). Feedback: off.",
    );
    // The admin view shows them, for a thread of the channel too, with no conversation going on.
    const place = encodeURIComponent(`slack|TPLACESET|${channel}|1715000000.000100`);
    const res = await callWorker(
      env,
      new Request(`https://bot.test/admin/conversations/${place}`, {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      }),
    );
    expect(await res.json()).toMatchObject({
      active: false,
      placeSettings: { initiative: true, eagerness: 80, rescue: true, rescueMinutes: 15 },
    });
  });

  it("says how to use it when the words are wrong, and how to be forgotten", async () => {
    const channel = newChannel("CPS");
    expect((await slash(channel, "UADMIN", "eagerness 101")).json.text).toMatch(
      /^eagerness is a whole number from 0 to 100\. Usage: \/parley/,
    );
    expect((await slash(channel, "UADMIN", "")).json.text).toMatch(/^Usage: \/parley initiative on\|off/);
    expect((await slash(channel, "UADMIN", "forget")).json.text).toMatch(/forget me/);
  });

  it("refuses a request that Slack did not sign", async () => {
    const res = await slash(newChannel("CPS"), "UADMIN", "initiative on", { secret: "not-the-secret" });
    expect(res.status).toBe(401);
  });
});

function parleyInteraction(
  channelId: string,
  permissions: string,
  sub: { name: string; options?: { name: string; type: number; value: string | number }[] },
) {
  return {
    id: snowflake(),
    application_id: APPLICATION_ID,
    type: 2,
    token: `aW50ZXJhY3Rpb246${snowflake()}${"x".repeat(40)}`,
    version: 1,
    guild_id: "310000000000000009",
    channel_id: channelId,
    channel: { id: channelId, type: 0 },
    member: {
      user: { id: "210000000000000009", username: "dana", global_name: "Dana", avatar: null, discriminator: "0" },
      roles: [],
      joined_at: "2024-01-01T00:00:00.000000+00:00",
      permissions,
    },
    data: {
      id: snowflake(),
      name: "parley",
      type: 1,
      options: [{ name: sub.name, type: 1, ...(sub.options ? { options: sub.options } : {}) }],
    },
  };
}

describe("/parley on Discord", () => {
  /** View Channel and Send Messages only; and with Manage Channels (1 << 4). */
  const MEMBER = String((1n << 10n) | (1n << 11n));
  const MANAGER = String((1n << 10n) | (1n << 11n) | (1n << 4n));

  it("answers at once, to its user alone; only a member who may manage the channel changes a setting", async () => {
    const channelId = `42${String(Date.now()).slice(-12)}${++seq}`;
    const ask = async (permissions: string, sub: Parameters<typeof parleyInteraction>[2]) => {
      const res = await interactAsDiscord(env, keys, parleyInteraction(channelId, permissions, sub));
      expect(res.status).toBe(200);
      const json = (await res.json()) as { type: number; data: { content: string; flags: number } };
      expect(json.type).toBe(4);
      expect(json.data.flags).toBe(64);
      return json.data.content;
    };
    expect(await ask(MEMBER, { name: "initiative", options: [{ name: "state", type: 3, value: "on" }] })).toMatch(
      /^Only/,
    );
    expect(await ask(MANAGER, { name: "initiative", options: [{ name: "state", type: 3, value: "on" }] })).toBe(
      "Done. Initiative: on (eagerness 50). Rescue: off. Feedback: off.",
    );
    expect(await ask(MANAGER, { name: "eagerness", options: [{ name: "value", type: 4, value: 25 }] })).toBe(
      "Done. Initiative: on (eagerness 25). Rescue: off. Feedback: off.",
    );
    expect(await ask(MEMBER, { name: "status" })).toBe("Initiative: on (eagerness 25). Rescue: off. Feedback: off.");
    // Discord sends the options in any order; the minutes come after the switch all the same.
    const rescue = {
      name: "rescue",
      options: [
        { name: "minutes", type: 4, value: 5 },
        { name: "state", type: 3, value: "on" },
      ],
    };
    expect(await ask(MANAGER, rescue)).toBe(
      "Done. Initiative: on (eagerness 25). Rescue: on (after 5 minutes). Feedback: off.",
    );
  });
});
