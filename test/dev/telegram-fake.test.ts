/**
 * @module
 * The Telegram Bot API fake is as strict as Telegram (dev/fakes/telegram): the token, methods and parameters, the
 * 4,096-character limit, forum topics, replies, edits, drafts only in private chats, flood control with
 * `retry_after`, a removed bot's 403; and it delivers updates as Telegram does: to the webhook `setWebhook` set,
 * with the secret token header, only what privacy mode lets a bot in a group see, reactions only when asked for.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTelegramFake, TELEGRAM_FAKE_BOT, type RunningTelegramFake } from "../../dev/fakes/telegram.ts";
import { setTelegramWebhook } from "../../dev/telegram-set-webhook.ts";
import { closeRecordingEndpoints, recordingEndpoint, type RecordingEndpoint } from "../support/recording-endpoint.ts";

let tg: RunningTelegramFake;
let hook: RecordingEndpoint;
beforeAll(async () => {
  tg = await startTelegramFake({ port: 0 });
  hook = await recordingEndpoint(undefined, "/telegram/webhook");
});
afterAll(async () => {
  await tg.close();
  await closeRecordingEndpoints();
});
beforeEach(async () => {
  await fetch(`${tg.url}/__reset`, { method: "POST" });
  hook.received.length = 0;
});

const GROUP = -1001;
const alice = { id: 11, first_name: "Alice" };
const bob = { id: 12, first_name: "Bob" };

async function api(method: string, args: Record<string, unknown>, token: string = TELEGRAM_FAKE_BOT.token) {
  const res = await fetch(`${tg.url}/bot${token}/${method}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(args),
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      ok: boolean;
      result?: Record<string, unknown>;
      description?: string;
      error_code?: number;
      parameters?: { retry_after: number };
    },
  };
}
async function control(path: string, body: unknown) {
  const res = await fetch(`${tg.url}${path}`, { method: "POST", body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}
const group = (extra: Record<string, unknown> = {}) =>
  control("/__chat", { id: GROUP, type: "supergroup", title: "Team", ...extra });

describe("the Bot API methods", () => {
  it("refuse an unknown token, an unknown method and a parameter Telegram does not take", async () => {
    await group();
    expect(await api("getMe", {}, "1:wrong-token-wrong-token-00")).toMatchObject({
      status: 401,
      body: { ok: false, description: "Unauthorized" },
    });
    expect(await api("sendMessages", { chat_id: GROUP, text: "hi" })).toMatchObject({
      status: 404,
      body: { description: "Not Found: method not found" },
    });
    expect((await api("sendMessage", { chat_id: GROUP, text: "hi", reply_to: 3 })).status).toBe(400);
    expect(await api("SENDMESSAGE", { chat_id: GROUP, text: "hi" })).toMatchObject({
      status: 200,
      body: { ok: true, result: { message_id: 1, text: "hi" } },
    });
  });

  it("take 1-4,096 characters of text, in a topic that exists, replying to a message that exists", async () => {
    await group({ is_forum: true });
    expect((await api("sendMessage", { chat_id: GROUP, text: "x".repeat(4_096) })).status).toBe(200);
    expect(await api("sendMessage", { chat_id: GROUP, text: "x".repeat(4_097) })).toMatchObject({
      status: 400,
      body: { description: "Bad Request: message is too long" },
    });
    expect(await api("sendMessage", { chat_id: GROUP, text: " " })).toMatchObject({
      status: 400,
      body: { description: "Bad Request: message text is empty" },
    });
    expect(await api("sendMessage", { chat_id: GROUP, text: "hi", message_thread_id: 99 })).toMatchObject({
      body: { description: "Bad Request: message thread not found" },
    });
    expect(
      await api("sendMessage", { chat_id: GROUP, text: "hi", reply_parameters: { message_id: 99 } }),
    ).toMatchObject({ body: { description: "Bad Request: message to be replied not found" } });
    expect(
      (
        await api("sendMessage", {
          chat_id: GROUP,
          text: "hi",
          reply_parameters: { message_id: 99, allow_sending_without_reply: true },
        })
      ).status,
    ).toBe(200);
  });

  it("edit only the bot's own message, and only into something else", async () => {
    await group();
    const { message_id } = (await control("/__message", {
      chat_id: GROUP,
      from: alice,
      text: "mine",
      deliver: false,
    })) as { message_id: number };
    const sent = (await api("sendMessage", { chat_id: GROUP, text: "draft" })).body.result!;
    expect(await api("editMessageText", { chat_id: GROUP, message_id, text: "changed" })).toMatchObject({
      body: { description: "Bad Request: message can't be edited" },
    });
    expect((await api("editMessageText", { chat_id: GROUP, message_id: sent.message_id, text: "final" })).status).toBe(
      200,
    );
    expect(
      (await api("editMessageText", { chat_id: GROUP, message_id: sent.message_id, text: "final" })).body.description,
    ).toMatch(/^Bad Request: message is not modified/);
  });

  it("stream drafts in private chats only", async () => {
    await group();
    await control("/__chat", { id: alice.id, type: "private", first_name: alice.first_name });
    expect((await api("sendMessageDraft", { chat_id: alice.id, draft_id: 5, text: "Think" })).body).toMatchObject({
      ok: true,
      result: true,
    });
    expect((await api("sendMessageDraft", { chat_id: GROUP, draft_id: 5, text: "Think" })).status).toBe(400);
    expect((await api("sendMessageDraft", { chat_id: alice.id, draft_id: 0, text: "Think" })).status).toBe(400);
  });

  it("answer 429 with retry_after past one chat's pace and a group's twenty a minute", async () => {
    await group();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await api("sendMessage", { chat_id: GROUP, text: `m${i}` }));
    expect(statuses.map((s) => s.status)).toEqual([200, 200, 200, 429]);
    expect(statuses[3]!.body).toMatchObject({
      error_code: 429,
      description: expect.stringMatching(/^Too Many Requests: retry after \d+$/),
      parameters: { retry_after: expect.any(Number) },
    });
    await control("/__config", { limits: { perChat: { limit: 100, windowMs: 1_000 } } });
    const minute = [];
    for (let i = 0; i < 21; i++) minute.push((await api("sendMessage", { chat_id: GROUP, text: `n${i}` })).status);
    expect(minute.filter((s) => s === 429).length).toBeGreaterThan(0);
  });

  it("refuse a bot that was removed from the group, or blocked in a private chat", async () => {
    await group({ bots: { [String(TELEGRAM_FAKE_BOT.id)]: "kicked" } });
    await control("/__chat", {
      id: alice.id,
      type: "private",
      first_name: "Alice",
      bots: { [String(TELEGRAM_FAKE_BOT.id)]: "kicked" },
    });
    expect(await api("sendMessage", { chat_id: GROUP, text: "hi" })).toMatchObject({
      status: 403,
      body: { description: "Forbidden: bot was kicked from the supergroup chat" },
    });
    expect(await api("sendMessage", { chat_id: alice.id, text: "hi" })).toMatchObject({
      status: 403,
      body: { description: "Forbidden: bot was blocked by the user" },
    });
  });
});

describe("updates to the webhook", () => {
  const updates = () => hook.received.map((r) => JSON.parse(r.body) as Record<string, Record<string, unknown>>);

  it("go with the secret token header, and setWebhook refuses a secret Telegram would", async () => {
    expect((await api("setWebhook", { url: hook.url, secret_token: "bad secret!" })).body.description).toBe(
      "Bad Request: secret token contains unallowed characters",
    );
    expect((await api("setWebhook", { url: "http://example.com/hook", secret_token: "s" })).body.description).toBe(
      "Bad Request: invalid webhook URL specified",
    );
    expect(
      (await api("setWebhook", { url: hook.url, secret_token: "s3cret_-token", allowed_updates: ["message"] })).body.ok,
    ).toBe(true);
    await control("/__chat", { id: alice.id, type: "private", first_name: "Alice" });
    await control("/__message", { chat_id: alice.id, from: alice, text: "hello" });
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.headers["x-telegram-bot-api-secret-token"]).toBe("s3cret_-token");
    expect(updates()[0]!.message).toMatchObject({ message_id: 1, text: "hello", chat: { type: "private" } });
  });

  it("in privacy mode carry only commands for the bot, mentions of it and replies to it; an admin gets everything", async () => {
    await api("setWebhook", { url: hook.url, secret_token: "s" });
    await group();
    const say = (from: object, text: string, extra: object = {}) =>
      control("/__message", { chat_id: GROUP, from, text, ...extra });
    await say(alice, "just chatting");
    await say(alice, "/ask@otherbot hi");
    await say(bob, `/ask@${TELEGRAM_FAKE_BOT.username} what is up?`);
    await say(bob, `hey @${TELEGRAM_FAKE_BOT.username}`);
    const { message_id } = (await api("sendMessage", { chat_id: GROUP, text: "an answer" })).body.result as {
      message_id: number;
    };
    await say(alice, "thanks", { reply_to_message_id: message_id });
    expect(updates().map((u) => u.message!.text)).toEqual([
      `/ask@${TELEGRAM_FAKE_BOT.username} what is up?`,
      `hey @${TELEGRAM_FAKE_BOT.username}`,
      "thanks",
    ]);
    expect(updates()[0]!.message!.entities).toEqual([
      { type: "bot_command", offset: 0, length: 4 + 1 + TELEGRAM_FAKE_BOT.username.length },
    ]);
    await control("/__chat", {
      id: -1003,
      type: "supergroup",
      title: "Admins",
      bots: { [String(TELEGRAM_FAKE_BOT.id)]: "administrator" },
    });
    await control("/__message", { chat_id: -1003, from: alice, text: "just chatting" });
    expect(updates().at(-1)!.message).toMatchObject({ text: "just chatting" });
  });

  it("carry reactions only to an admin that asked for them, and the bot's removal always", async () => {
    await api("setWebhook", { url: hook.url, secret_token: "s" });
    await group({ bots: { [String(TELEGRAM_FAKE_BOT.id)]: "administrator" } });
    const { message_id } = (await api("sendMessage", { chat_id: GROUP, text: "an answer" })).body.result as {
      message_id: number;
    };
    await control("/__reaction", { chat_id: GROUP, message_id, user: alice, emoji: "👎" });
    expect(hook.received).toHaveLength(0);
    await api("setWebhook", {
      url: hook.url,
      secret_token: "s",
      allowed_updates: ["message", "message_reaction", "my_chat_member"],
    });
    await control("/__reaction", { chat_id: GROUP, message_id, user: bob, emoji: "👎" });
    await control("/__member", { chat_id: GROUP, bot_id: TELEGRAM_FAKE_BOT.id, status: "left", from: alice });
    expect(updates().map((u) => Object.keys(u).find((k) => k !== "update_id"))).toEqual([
      "message_reaction",
      "my_chat_member",
    ]);
    expect(updates()[0]!.message_reaction).toMatchObject({
      message_id,
      old_reaction: [],
      new_reaction: [{ type: "emoji", emoji: "👎" }],
    });
    expect((await api("sendMessage", { chat_id: GROUP, text: "still here?" })).status).toBe(403);
  });
});

describe("npm run telegram:set-webhook", () => {
  const env = () => ({
    TELEGRAM_BOT_TOKEN: TELEGRAM_FAKE_BOT.token,
    TELEGRAM_WEBHOOK_SECRET: "s3cret",
    PUBLIC_BASE_URL: `${hook.url.replace(/\/telegram\/webhook$/, "")}/`,
    TELEGRAM_API_BASE_URL: tg.url,
  });

  it("points the bot's updates at the Worker's route with the secret and the updates Parley reads, and says privacy mode is on", async () => {
    const done = await setTelegramWebhook({ ...env(), TELEGRAM_BOT_USERNAME: `@${TELEGRAM_FAKE_BOT.username}` });
    expect(done).toEqual({ url: hook.url, username: TELEGRAM_FAKE_BOT.username, readsAllGroupMessages: false });
    expect((await api("getWebhookInfo", {})).body.result).toMatchObject({
      url: hook.url,
      allowed_updates: ["message", "message_reaction", "my_chat_member", "callback_query"],
    });
    await control("/__chat", { id: alice.id, type: "private", first_name: "Alice" });
    await control("/__message", { chat_id: alice.id, from: alice, text: "hello" });
    expect(hook.received[0]!.headers["x-telegram-bot-api-secret-token"]).toBe("s3cret");
  });

  it("refuses a username that is not this token's bot, and a secret Telegram would refuse, saying which", async () => {
    await expect(setTelegramWebhook({ ...env(), TELEGRAM_BOT_USERNAME: "SomeOtherBot" })).rejects.toThrow(
      `set TELEGRAM_BOT_USERNAME=${TELEGRAM_FAKE_BOT.username}`,
    );
    await expect(setTelegramWebhook({ ...env(), TELEGRAM_WEBHOOK_SECRET: "not ok!" })).rejects.toThrow(
      /^TELEGRAM_WEBHOOK_SECRET /,
    );
    expect((await api("getWebhookInfo", {})).body.result).toMatchObject({ url: "" });
  });
});
