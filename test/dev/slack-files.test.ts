/**
 * @module
 * The Slack fake serves a pasted file's `url_private` as Slack does: only with a bot token of the file's own
 * workspace in the Authorization header (no token, a revoked one or another workspace's is sent to the sign-in
 * page), and only to an app granted `files:read`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SLACK_FAKE_OAUTH_CLIENT } from "../../dev/fakes/slack.ts";
import { startSlack, TOKEN, type SlackHarness } from "./slack-client.ts";

let slack: SlackHarness;
beforeAll(async () => void (slack = await startSlack()));
afterAll(() => slack.close());
beforeEach(() => slack.control("/__reset", {}));

const CLIENT = `${SLACK_FAKE_OAUTH_CLIENT.clientId}:${SLACK_FAKE_OAUTH_CLIENT.clientSecret}`;

async function installedWith(team: string, scope: string): Promise<string> {
  const { code } = await slack.control<{ code: string }>("/__install", { team_id: team, scope });
  return (await slack.call("oauth.v2.access", { code }, { basic: CLIENT, form: true })).body.access_token as string;
}

const get = (url: string, token?: string) =>
  fetch(url, { redirect: "manual", ...(token ? { headers: { Authorization: `Bearer ${token}` } } : {}) });

describe("files on the Slack fake", () => {
  it("serves url_private to its workspace's bot token, and sends anyone else to sign in", async () => {
    const file = await slack.control<{ url_private: string; size: number; original_w: number }>("/__files", {
      name: "shot.png",
      png: { width: 30, height: 20, colour: "#ff0000" },
    });
    expect(file.original_w).toBe(30);
    const served = await get(file.url_private, TOKEN);
    expect(served.status).toBe(200);
    expect((await served.arrayBuffer()).byteLength).toBe(file.size);
    expect((await get(file.url_private)).status).toBe(302);
    expect((await get(file.url_private, "xoxb-never-issued")).status).toBe(302);
    expect((await get(file.url_private, await installedWith("T0OTHERWS", "files:read,chat:write"))).status).toBe(302);
  });

  it("refuses a token of the file's workspace that was not granted files:read", async () => {
    const token = await installedWith("T0NOFILES", "chat:write");
    const file = await slack.control<{ url_private: string }>("/__files", {
      team: "T0NOFILES",
      name: "a.txt",
      type: "text/plain",
      base64: "aGk=",
    });
    expect((await get(file.url_private, token)).status).toBe(403);
  });
});
