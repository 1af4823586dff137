/**
 * @module
 * The Slack fake refuses what Slack refuses: a method whose scope the workspace did not grant (`missing_scope`
 * with `needed` and `provided`), a channel the bot is not in (`not_in_channel`, or `channel_not_found` when
 * private), oauth.v2.access with a JSON body (it reads forms only), a stream naming an org-scoped team; it takes
 * every method we call as a form, and leaves optional fields out of its answers (`bot_user_id` on a refresh).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SLACK_FAKE_OAUTH_CLIENT } from "../../dev/fakes/slack.ts";
import { defaultGrant } from "../../dev/fakes/slack/methods.ts";
import { SLACK_BOT_SCOPES } from "../../lib/platforms/slack/oauth/authorize.ts";
import { startSlack, type SlackHarness } from "./slack-client.ts";

let slack: SlackHarness;
beforeAll(async () => void (slack = await startSlack()));
afterAll(() => slack.close());
beforeEach(() => slack.control("/__reset", {}));

const CLIENT = `${SLACK_FAKE_OAUTH_CLIENT.clientId}:${SLACK_FAKE_OAUTH_CLIENT.clientSecret}`;
const THREAD = "1715000000.000100";

/** A workspace installed with `scope`, and its bot token. */
async function installedWith(team: string, scope: string): Promise<string> {
  const { code } = await slack.control<{ code: string }>("/__install", { team_id: team, scope });
  const answer = await slack.call("oauth.v2.access", { code }, { basic: CLIENT, form: true });
  return answer.body.access_token as string;
}

describe("scopes", () => {
  it("grants an install the manifest's bot scopes, the same the install link asks for", async () => {
    expect(defaultGrant().split(",")).toContain("chat:write");
    const team = (await slack.control<{ id: string; scope: string }[]>("/__teams")).find((t) => t.id === "T0FAKETEAM")!;
    expect(team.scope.split(",").sort()).toEqual([...SLACK_BOT_SCOPES].sort());
  });

  it("answers missing_scope, naming the scope needed and those granted, for each method without its scope", async () => {
    const token = await installedWith("T0NOSCOPE", "app_mentions:read");
    const calls: [string, Record<string, unknown>, string][] = [
      ["chat.postMessage", { channel: "C0STRICT1", text: "hi" }, "chat:write"],
      ["chat.update", { channel: "C0STRICT1", ts: THREAD, text: "hi" }, "chat:write"],
      ["chat.startStream", { channel: "D0STRICT1", thread_ts: THREAD }, "chat:write"],
      ["reactions.add", { channel: "C0STRICT1", timestamp: THREAD, name: "eyes" }, "reactions:write"],
      ["reactions.remove", { channel: "C0STRICT1", timestamp: THREAD, name: "eyes" }, "reactions:write"],
      ["conversations.history", { channel: "C0STRICT1" }, "channels:history"],
      ["conversations.replies", { channel: "G0STRICT1", ts: THREAD }, "groups:history,mpim:history"],
      ["conversations.replies", { channel: "D0STRICT1", ts: THREAD }, "im:history"],
      [
        "assistant.threads.setStatus",
        { channel_id: "D0STRICT1", thread_ts: THREAD, status: "is thinking…" },
        "chat:write,assistant:write",
      ],
      [
        "assistant.threads.setSuggestedPrompts",
        { channel_id: "D0STRICT1", prompts: [{ title: "Hi", message: "Hi" }] },
        "assistant:write",
      ],
      ["assistant.threads.setTitle", { channel_id: "D0STRICT1", thread_ts: THREAD, title: "Hi" }, "assistant:write"],
    ];
    for (const [method, params, needed] of calls) {
      expect((await slack.call(method, params, { token })).body, method).toEqual({
        ok: false,
        error: "missing_scope",
        needed,
        provided: "app_mentions:read",
      });
    }
    expect((await slack.call("auth.test", {}, { token })).body.ok).toBe(true);
  });

  it("tells who is an admin and who created a channel only with users:read and the channel's *:read, read from forms", async () => {
    const bare = await installedWith("T0ROLES0", "chat:write");
    expect((await slack.call("users.info", { user: "U0BOSS" }, { token: bare, form: true })).body).toMatchObject({
      error: "missing_scope",
      needed: "users:read",
    });
    expect(
      (await slack.call("conversations.info", { channel: "C0ROLES1" }, { token: bare, form: true })).body,
    ).toMatchObject({ error: "missing_scope", needed: "channels:read" });
    expect(
      (await slack.call("conversations.info", { channel: "G0ROLES1" }, { token: bare, form: true })).body,
    ).toMatchObject({ error: "missing_scope", needed: "groups:read,mpim:read" });
    const token = await installedWith("T0ROLES1", "users:read,channels:read");
    await slack.control("/__roles", { team: "T0ROLES1", admins: ["U0BOSS"], channel: "C0ROLES1", creator: "U0MAKER" });
    expect((await slack.call("users.info", { user: "U0BOSS" }, { token, form: true })).body).toMatchObject({
      ok: true,
      user: { id: "U0BOSS", is_admin: true, is_owner: false },
    });
    expect((await slack.call("users.info", { user: "U0MAKER" }, { token, form: true })).body).toMatchObject({
      ok: true,
      user: { is_admin: false },
    });
    expect((await slack.call("conversations.info", { channel: "C0ROLES1" }, { token, form: true })).body).toMatchObject(
      { ok: true, channel: { id: "C0ROLES1", creator: "U0MAKER" } },
    );
    // Another workspace's admin is nobody here; a JSON body's arguments are never read.
    const other = await installedWith("T0ROLES2", "users:read");
    expect((await slack.call("users.info", { user: "U0BOSS" }, { token: other, form: true })).body).toMatchObject({
      user: { is_admin: false },
    });
    expect((await slack.call("users.info", { user: "U0BOSS" }, { token })).body).toMatchObject({
      ok: false,
      error: "invalid_arguments",
    });
  });

  it("lets the scope of one kind of conversation read that kind only", async () => {
    const token = await installedWith("T0IMONLY1", "im:history,chat:write");
    expect((await slack.call("conversations.history", { channel: "D0STRICT2" }, { token })).body.ok).toBe(true);
    expect((await slack.call("conversations.history", { channel: "C0STRICT2" }, { token })).body).toMatchObject({
      error: "missing_scope",
      needed: "channels:history",
    });
  });
});

describe("the agent surface", () => {
  const prompt = (n: number) => ({ title: `Prompt ${n}`, message: `Ask ${n}` });

  it("takes up to four suggested prompts, each with a title and a message, and refuses more or less", async () => {
    const token = await installedWith("T0PROMPTS", "assistant:write");
    const set = async (prompts: unknown) =>
      (await slack.call("assistant.threads.setSuggestedPrompts", { channel_id: "D0PROMPT1", prompts }, { token })).body;
    expect(await set([1, 2, 3, 4].map(prompt))).toEqual({ ok: true });
    for (const refused of [[1, 2, 3, 4, 5].map(prompt), [], [{ title: "No message" }], [{ title: " ", message: "x" }]])
      expect(await set(refused)).toEqual({ ok: false, error: "invalid_arguments" });
    const [thread] = await slack.control<{ prompts?: unknown[] }[]>("/__assistant?channel=D0PROMPT1");
    expect(thread?.prompts).toEqual([1, 2, 3, 4].map(prompt));
  });

  it("titles a thread only when named, with a title", async () => {
    const token = await installedWith("T0TITLES", "assistant:write");
    const title = async (params: Record<string, unknown>) =>
      (await slack.call("assistant.threads.setTitle", { channel_id: "D0TITLE1", ...params }, { token })).body;
    expect(await title({ title: "A title" })).toEqual({ ok: false, error: "invalid_thread_ts" });
    expect(await title({ thread_ts: THREAD })).toEqual({ ok: false, error: "invalid_arguments" });
    expect(await title({ thread_ts: THREAD, title: "A title" })).toEqual({ ok: true });
  });
});

describe("channel membership", () => {
  it("refuses a bot removed from a channel: not_in_channel when public, channel_not_found when private", async () => {
    await slack.control("/__membership", { channel: "C0LEFT001", member: false });
    await slack.control("/__membership", { channel: "G0LEFT001", member: false });
    expect((await slack.call("chat.postMessage", { channel: "C0LEFT001", text: "hi" })).body).toEqual({
      ok: false,
      error: "not_in_channel",
    });
    expect((await slack.call("conversations.history", { channel: "C0LEFT001" })).body).toEqual({
      ok: false,
      error: "not_in_channel",
    });
    expect((await slack.call("reactions.add", { channel: "C0LEFT001", timestamp: THREAD, name: "eyes" })).body).toEqual(
      { ok: false, error: "not_in_channel" },
    );
    expect((await slack.call("chat.postMessage", { channel: "G0LEFT001", text: "hi" })).body).toEqual({
      ok: false,
      error: "channel_not_found",
    });
    await slack.control("/__membership", { channel: "C0LEFT001", member: true });
    expect((await slack.call("chat.postMessage", { channel: "C0LEFT001", text: "back" })).body.ok).toBe(true);
  });
});

describe("bodies", () => {
  it("takes every method Parley calls as a form, the way Slack's own clients send them", async () => {
    const posted = await slack.call(
      "chat.postMessage",
      { channel: "C0FORM001", text: "hi", metadata: { event_type: "e", event_payload: { a: 1 } } },
      { form: true },
    );
    expect(posted.body.ok).toBe(true);
    const ts = posted.body.ts as string;
    for (const [method, params] of [
      ["chat.update", { channel: "C0FORM001", ts, text: "edited" }],
      ["reactions.add", { channel: "C0FORM001", timestamp: ts, name: "eyes" }],
      ["reactions.remove", { channel: "C0FORM001", timestamp: ts, name: "eyes" }],
      ["conversations.history", { channel: "C0FORM001", include_all_metadata: "true" }],
      ["conversations.replies", { channel: "C0FORM001", ts }],
      ["assistant.threads.setStatus", { channel_id: "D0FORM001", thread_ts: THREAD, status: "is thinking…" }],
      ["auth.test", {}],
    ] as const) {
      expect((await slack.call(method, params, { form: true })).body.ok, method).toBe(true);
    }
    const started = await slack.call(
      "chat.startStream",
      {
        channel: "C0FORM001",
        thread_ts: ts,
        recipient_user_id: "U0ALICE01",
        recipient_team_id: "T0FAKETEAM",
        markdown_text: "a",
      },
      { form: true },
    );
    expect(started.body.ok).toBe(true);
    expect(
      (
        await slack.call(
          "chat.appendStream",
          { channel: "C0FORM001", ts: started.body.ts, markdown_text: "b" },
          { form: true },
        )
      ).body.ok,
    ).toBe(true);
    expect(
      (await slack.call("chat.stopStream", { channel: "C0FORM001", ts: started.body.ts }, { form: true })).body.ok,
    ).toBe(true);
  });

  it("reads no argument of a JSON body on oauth.v2.access, which takes forms only", async () => {
    const { code } = await slack.control<{ code: string }>("/__install", { team_id: "T0JSONAUTH" });
    expect((await slack.call("oauth.v2.access", { code }, { basic: CLIENT })).body).toEqual({
      ok: false,
      error: "invalid_code",
    });
    expect((await slack.call("oauth.v2.access", { code }, { basic: CLIENT, form: true })).body.ok).toBe(true);
  });

  it("refuses a channel stream whose recipient team is not a workspace id (an org-scoped E…:T…)", async () => {
    const stream = { channel: "C0STREAM1", thread_ts: THREAD, recipient_user_id: "U0ALICE01", markdown_text: "a" };
    expect(
      (await slack.call("chat.startStream", { ...stream, recipient_team_id: "E0ORG0001:T0FAKETEAM" })).body,
    ).toEqual({ ok: false, error: "invalid_arguments" });
    expect((await slack.call("chat.startStream", { ...stream, recipient_team_id: "T0FAKETEAM" })).body.ok).toBe(true);
  });
});

describe("optional answer fields", () => {
  it("leaves bot_user_id out of a refresh's answer", async () => {
    await slack.control("/__config", { oauth: { tokenRotation: true } });
    const { code } = await slack.control<{ code: string }>("/__install", { team_id: "T0ROTATE1" });
    const installed = (await slack.call("oauth.v2.access", { code }, { basic: CLIENT, form: true })).body;
    expect(installed.bot_user_id).toBe("UBOT0ROTATE1");
    const refreshed = (
      await slack.call(
        "oauth.v2.access",
        { grant_type: "refresh_token", refresh_token: installed.refresh_token as string },
        { basic: CLIENT, form: true },
      )
    ).body;
    expect(refreshed).toMatchObject({ ok: true, token_type: "bot" });
    expect(refreshed).not.toHaveProperty("bot_user_id");
  });
});
