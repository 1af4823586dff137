/**
 * @module
 * The Discord REST fake: enforced nonces, message edits, the typing indicator, the 2,000-character limit and
 * per-route buckets with Discord's rate-limit headers and 429 body.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDiscordFake, type RunningDiscordFake } from "../../dev/fakes/discord.ts";

let discord: RunningDiscordFake;
let origin: string;
beforeAll(async () => {
  discord = await startDiscordFake({ port: 0 });
  origin = discord.url.replace(/\/api\/v10$/, "");
});
afterAll(() => discord.close());
beforeEach(() => fetch(`${origin}/__reset`, { method: "POST" }));

const BOT = { Authorization: "Bot test-bot-token", "Content-Type": "application/json" };
const rest = (method: string, path: string, body?: unknown, headers: Record<string, string> = BOT) =>
  fetch(`${discord.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const control = async <T>(path: string, body?: unknown): Promise<T> =>
  (await fetch(`${origin}${path}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) })).json() as Promise<T>;

describe("channel messages", () => {
  it("returns the first message for a repeated enforced nonce of the same bot, and makes a new one for another bot", async () => {
    const post = { content: "answer", nonce: "trigger-1:0", enforce_nonce: true };
    const first = (await (await rest("POST", "/channels/600000000000000001/messages", post)).json()) as { id: string; nonce: string };
    const again = (await (await rest("POST", "/channels/600000000000000001/messages", post)).json()) as { id: string };
    expect(again.id).toBe(first.id);
    expect(first.nonce).toBe("trigger-1:0");
    const other = (await (await rest("POST", "/channels/600000000000000001/messages", post, { ...BOT, Authorization: "Bot other" })).json()) as { id: string };
    expect(other.id).not.toBe(first.id);
    expect(await control<unknown[]>("/__calls?route=channel_message")).toHaveLength(2);
  });

  it("forgets a nonce after its window", async () => {
    await control("/__config", { nonceWindowMs: 30 });
    const post = { content: "answer", nonce: "n", enforce_nonce: true };
    const first = (await (await rest("POST", "/channels/600000000000000002/messages", post)).json()) as { id: string };
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(((await (await rest("POST", "/channels/600000000000000002/messages", post)).json()) as { id: string }).id).not.toBe(first.id);
  });

  it("edits the bot's message, refusing more than 2,000 characters with 50035", async () => {
    const { id } = (await (await rest("POST", "/channels/600000000000000003/messages", { content: "draft" })).json()) as { id: string };
    const tooLong = await rest("PATCH", `/channels/600000000000000003/messages/${id}`, { content: "x".repeat(2_001) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ code: 50035, errors: { content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] } } });
    const edited = await rest("PATCH", `/channels/600000000000000003/messages/${id}`, { content: "final" });
    expect(await edited.json()).toMatchObject({ id, content: "final", edited_timestamp: expect.any(String) });
    expect((await rest("PATCH", "/channels/600000000000000003/messages/123", { content: "x" })).status).toBe(404);
  });

  it("answers the typing indicator with 204 and records when it was sent", async () => {
    const res = await rest("POST", "/channels/600000000000000004/typing");
    expect(res.status).toBe(204);
    const [typing] = await control<{ route: string; at: number }[]>("/__calls?route=typing&channelId=600000000000000004");
    expect(typing!.at).toBeGreaterThan(Date.now() - 5_000);
  });
});

describe("interaction webhooks", () => {
  it("edits @original in place, reads it back, and edits a follow-up", async () => {
    const path = "/webhooks/100000000000000001/interaction-token-1";
    const first = (await (await rest("PATCH", `${path}/messages/@original`, { content: "thinking" }, {})).json()) as { id: string };
    await rest("PATCH", `${path}/messages/@original`, { content: "done" }, {});
    expect(await (await rest("GET", `${path}/messages/@original`, undefined, {})).json()).toMatchObject({ id: first.id, content: "done" });
    const followup = (await (await rest("POST", path, { content: "more" }, {})).json()) as { id: string };
    expect((await rest("PATCH", `${path}/messages/${followup.id}`, { content: "more, edited" }, {})).status).toBe(200);
    expect((await rest("GET", "/webhooks/100000000000000001/unknown-token/messages/@original", undefined, {})).status).toBe(404);
  });
});

describe("rate limits", () => {
  it("sends the bucket headers and refuses the call past the bucket with Discord's 429", async () => {
    await control("/__config", { limits: { editMessage: { limit: 2, windowMs: 1_000 } } });
    const { id } = (await (await rest("POST", "/channels/600000000000000005/messages", { content: "a" })).json()) as { id: string };
    const edit = () => rest("PATCH", `/channels/600000000000000005/messages/${id}`, { content: "b" });
    const ok = await edit();
    expect(ok.headers.get("x-ratelimit-limit")).toBe("2");
    expect(ok.headers.get("x-ratelimit-remaining")).toBe("1");
    expect(Number(ok.headers.get("x-ratelimit-reset-after"))).toBeGreaterThan(0);
    await edit();
    const refused = await edit();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({ message: "You are being rate limited.", global: false, retry_after: expect.any(Number) });
    expect(await control("/__stats")).toMatchObject({ ratelimited: { total: 1, byBucket: { editMessage: 1 } } });
  });

  it("counts 5 messages per 5 seconds per channel by default", async () => {
    for (let i = 0; i < 5; i++) expect((await rest("POST", "/channels/600000000000000006/messages", { content: `m${i}` })).status).toBe(200);
    expect((await rest("POST", "/channels/600000000000000006/messages", { content: "m5" })).status).toBe(429);
    expect((await rest("POST", "/channels/600000000000000007/messages", { content: "elsewhere" })).status).toBe(200);
  });
});
