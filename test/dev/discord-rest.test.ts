/**
 * @module
 * The Discord REST fake: enforced nonces, message edits, the typing indicator, the 2,000-character limit,
 * per-route buckets with Discord's rate-limit headers and 429 body, interaction tokens as Discord takes them
 * (acknowledged, within 15 minutes) and the bot's permissions in a channel.
 */
import { describe, expect, it } from "vitest";
import { discordFakeDuringSuite } from "../support/discord-rest-fake.ts";

const discord = discordFakeDuringSuite();

const BOT = { Authorization: "Bot test-bot-token", "Content-Type": "application/json" };
const rest = (method: string, path: string, body?: unknown, headers: Record<string, string> = BOT) =>
  fetch(`${discord.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const control = async <T>(path: string, body?: unknown): Promise<T> =>
  (
    await fetch(`${discord.origin}${path}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) })
  ).json() as Promise<T>;

describe("channel messages", () => {
  it("returns the first message for a repeated enforced nonce of the same bot, and makes a new one for another bot", async () => {
    const post = { content: "answer", nonce: "trigger-1:0", enforce_nonce: true };
    const first = (await (await rest("POST", "/channels/600000000000000001/messages", post)).json()) as {
      id: string;
      nonce: string;
    };
    const again = (await (await rest("POST", "/channels/600000000000000001/messages", post)).json()) as { id: string };
    expect(again.id).toBe(first.id);
    expect(first.nonce).toBe("trigger-1:0");
    const other = (await (
      await rest("POST", "/channels/600000000000000001/messages", post, { ...BOT, Authorization: "Bot other" })
    ).json()) as { id: string };
    expect(other.id).not.toBe(first.id);
    expect(await control<unknown[]>("/__calls?route=channel_message")).toHaveLength(2);
  });

  it("forgets a nonce after its window", async () => {
    await control("/__config", { nonceWindowMs: 30 });
    const post = { content: "answer", nonce: "n", enforce_nonce: true };
    const first = (await (await rest("POST", "/channels/600000000000000002/messages", post)).json()) as { id: string };
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(
      ((await (await rest("POST", "/channels/600000000000000002/messages", post)).json()) as { id: string }).id,
    ).not.toBe(first.id);
  });

  it("edits the bot's message, refusing more than 2,000 characters with 50035", async () => {
    const { id } = (await (
      await rest("POST", "/channels/600000000000000003/messages", { content: "draft" })
    ).json()) as { id: string };
    const tooLong = await rest("PATCH", `/channels/600000000000000003/messages/${id}`, { content: "x".repeat(2_001) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({
      code: 50035,
      errors: { content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] } },
    });
    const edited = await rest("PATCH", `/channels/600000000000000003/messages/${id}`, { content: "final" });
    expect(await edited.json()).toMatchObject({ id, content: "final", edited_timestamp: expect.any(String) });
    expect((await rest("PATCH", "/channels/600000000000000003/messages/123", { content: "x" })).status).toBe(404);
  });

  it("answers the typing indicator with 204 and records when it was sent", async () => {
    const res = await rest("POST", "/channels/600000000000000004/typing");
    expect(res.status).toBe(204);
    const [typing] = await control<{ route: string; at: number }[]>(
      "/__calls?route=typing&channelId=600000000000000004",
    );
    expect(typing!.at).toBeGreaterThan(Date.now() - 5_000);
  });
});

describe("interaction webhooks", () => {
  const APP = "100000000000000001";
  let seq = 0;
  /** An interaction Discord sent, answered by the app with `answer` after `ms`; its webhook path. */
  async function interaction(
    answer: { status: number; body: unknown },
    ms = 40,
  ): Promise<{ token: string; path: string }> {
    seq += 1;
    const token = `interaction-token-${seq}`;
    await control("/__interactions", {
      id: String(700000000000000000n + BigInt(seq)),
      application_id: APP,
      token,
      channel_id: "600000000000000010",
      answer,
      answered_after_ms: ms,
    });
    return { token, path: `/webhooks/${APP}/${token}` };
  }
  const deferred = { status: 200, body: { type: 5 } };
  const error = async (res: Response) => ({ status: res.status, code: ((await res.json()) as { code: number }).code });

  it("after a deferral: reads the 'thinking…' message, edits it in place, and edits a follow-up", async () => {
    const { path } = await interaction(deferred);
    const thinking = (await (await rest("GET", `${path}/messages/@original`, undefined, {})).json()) as {
      id: string;
      content: string;
      flags: number;
    };
    expect(thinking).toMatchObject({ content: "", flags: 128, channel_id: "600000000000000010" });
    await rest("PATCH", `${path}/messages/@original`, { content: "done" }, {});
    expect(await (await rest("GET", `${path}/messages/@original`, undefined, {})).json()).toMatchObject({
      id: thinking.id,
      content: "done",
      flags: 0,
    });
    const followup = (await (await rest("POST", path, { content: "more" }, {})).json()) as { id: string };
    expect((await rest("PATCH", `${path}/messages/${followup.id}`, { content: "more, edited" }, {})).status).toBe(200);
  });

  it("refuses a token Discord never issued: 10015 Unknown Webhook", async () => {
    const path = `/webhooks/${APP}/never-issued`;
    expect(await error(await rest("PATCH", `${path}/messages/@original`, { content: "x" }, {}))).toEqual({
      status: 404,
      code: 10015,
    });
    expect(await error(await rest("POST", path, { content: "x" }, {}))).toEqual({ status: 404, code: 10015 });
    const { token } = await interaction(deferred);
    expect(await error(await rest("POST", `/webhooks/200000000000000002/${token}`, { content: "x" }, {}))).toEqual({
      status: 404,
      code: 10015,
    });
  });

  it.each([
    ["no answer of a callback type (an error)", { status: 500, body: null }, 40],
    ["a PONG", { status: 200, body: { type: 1 } }, 40],
    ["a deferral after the 3 seconds", deferred, 3_200],
  ])(
    "refuses @original before the interaction was acknowledged, here %s: edits 10015, reads 10008",
    async (_name, answer, ms) => {
      const { path } = await interaction(answer, ms);
      expect(await error(await rest("PATCH", `${path}/messages/@original`, { content: "x" }, {}))).toEqual({
        status: 404,
        code: 10015,
      });
      expect(await error(await rest("GET", `${path}/messages/@original`, undefined, {}))).toEqual({
        status: 404,
        code: 10008,
      });
      expect(await error(await rest("POST", path, { content: "x" }, {}))).toEqual({ status: 404, code: 10015 });
    },
  );

  it("counts the first answer: a later report of the same interaction changes nothing", async () => {
    const { token, path } = await interaction(deferred);
    await control("/__interactions", {
      id: "799999999999999999",
      application_id: APP,
      token,
      answer: { status: 500, body: null },
      answered_after_ms: 10,
    });
    expect((await rest("PATCH", `${path}/messages/@original`, { content: "still fine" }, {})).status).toBe(200);
  });

  it("refuses every call 15 minutes after the interaction: 401 50027 Invalid Webhook Token", async () => {
    const { token, path } = await interaction({ status: 200, body: { type: 4, data: { content: "hi" } } });
    expect(await (await rest("GET", `${path}/messages/@original`, undefined, {})).json()).toMatchObject({
      content: "hi",
    });
    await control("/__interactions/age", { token, ms: 15 * 60 * 1000 - 2_000 });
    expect((await rest("PATCH", `${path}/messages/@original`, { content: "just in time" }, {})).status).toBe(200);
    await control("/__interactions/age", { token, ms: 2_000 });
    expect(await error(await rest("PATCH", `${path}/messages/@original`, { content: "late" }, {}))).toEqual({
      status: 401,
      code: 50027,
    });
    expect(await error(await rest("POST", path, { content: "late" }, {}))).toEqual({ status: 401, code: 50027 });
  });
});

describe("the bot's permissions in a channel", () => {
  const VIEW = 1n << 10n;
  const SEND = 1n << 11n;
  const HISTORY = 1n << 16n;
  const SEND_IN_THREADS = 1n << 38n;
  const channel = async (id: string, permissions: bigint, type = 0) =>
    control("/__channel", { id, type, bot_permissions: String(permissions) });
  const code = async (res: Response) => (res.status === 200 ? 200 : ((await res.json()) as { code: number }).code);

  it("without VIEW_CHANNEL reaches nothing in the channel: 50001 Missing Access", async () => {
    await channel("610000000000000001", SEND | HISTORY);
    const at = "/channels/610000000000000001";
    const codes = [
      await code(await rest("GET", at)),
      await code(await rest("POST", `${at}/messages`, { content: "hi" })),
      await code(await rest("GET", `${at}/messages`)),
      await code(await rest("GET", `${at}/messages/1`)),
    ];
    expect(codes).toEqual([50001, 50001, 50001, 50001]);
  });

  it("without READ_MESSAGE_HISTORY reads no message (50013), lists none, and cannot reply, though it can post", async () => {
    await channel("610000000000000002", VIEW | SEND);
    const at = "/channels/610000000000000002";
    const posted = (await (await rest("POST", `${at}/messages`, { content: "plain post" })).json()) as { id: string };
    expect(await code(await rest("GET", `${at}/messages/${posted.id}`))).toBe(50013);
    expect(await (await rest("GET", `${at}/messages`)).json()).toEqual([]);
    expect(
      await code(
        await rest("POST", `${at}/messages`, { content: "a reply", message_reference: { message_id: posted.id } }),
      ),
    ).toBe(50013);
  });

  it("posts in a thread only with SEND_MESSAGES_IN_THREADS, whatever SEND_MESSAGES says", async () => {
    await channel("610000000000000003", VIEW | SEND | HISTORY, 11);
    expect(await code(await rest("POST", "/channels/610000000000000003/messages", { content: "in the thread" }))).toBe(
      50013,
    );
    await channel("610000000000000003", VIEW | SEND_IN_THREADS | HISTORY, 11);
    expect(await code(await rest("POST", "/channels/610000000000000003/messages", { content: "in the thread" }))).toBe(
      200,
    );
  });

  it("lists a channel's messages newest first, by limit, before or after one, and refuses two anchors", async () => {
    const at = "/channels/610000000000000004/messages";
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      ids.push(((await (await rest("POST", at, { content: `m${i}` })).json()) as { id: string }).id);
    const contents = async (query: string) =>
      ((await (await rest("GET", `${at}${query}`)).json()) as { content: string }[]).map((m) => m.content);
    expect(await contents("?limit=2")).toEqual(["m3", "m2"]);
    expect(await contents(`?before=${ids[2]}`)).toEqual(["m1", "m0"]);
    expect(await contents(`?after=${ids[0]}&limit=2`)).toEqual(["m2", "m1"]);
    expect((await rest("GET", `${at}?before=${ids[2]}&after=${ids[0]}`)).status).toBe(400);
    expect((await rest("GET", `${at}?limit=101`)).status).toBe(400);
  });
});

describe("rate limits", () => {
  it("sends the bucket headers and refuses the call past the bucket with Discord's 429", async () => {
    await control("/__config", { limits: { editMessage: { limit: 2, windowMs: 1_000 } } });
    const { id } = (await (await rest("POST", "/channels/600000000000000005/messages", { content: "a" })).json()) as {
      id: string;
    };
    const edit = () => rest("PATCH", `/channels/600000000000000005/messages/${id}`, { content: "b" });
    const ok = await edit();
    expect(ok.headers.get("x-ratelimit-limit")).toBe("2");
    expect(ok.headers.get("x-ratelimit-remaining")).toBe("1");
    expect(Number(ok.headers.get("x-ratelimit-reset-after"))).toBeGreaterThan(0);
    await edit();
    const refused = await edit();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({
      message: "You are being rate limited.",
      global: false,
      retry_after: expect.any(Number),
    });
    expect(await control("/__stats")).toMatchObject({ ratelimited: { total: 1, byBucket: { editMessage: 1 } } });
  });

  it("counts 5 messages per 5 seconds per channel by default", async () => {
    for (let i = 0; i < 5; i++)
      expect((await rest("POST", "/channels/600000000000000006/messages", { content: `m${i}` })).status).toBe(200);
    expect((await rest("POST", "/channels/600000000000000006/messages", { content: "m5" })).status).toBe(429);
    expect((await rest("POST", "/channels/600000000000000007/messages", { content: "elsewhere" })).status).toBe(200);
  });
});
