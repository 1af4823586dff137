/**
 * @module
 * The Google Chat fake is as strict as Google (dev/fakes/google-chat): its token endpoint grants a token only for a
 * well-formed assertion of its service account for itself, its Chat API refuses a token without the method's scope,
 * a post to a space the app is not in, an edit of a message that is not the app's, a body past 32,000 bytes and a
 * read that no administrator approved, keeps `requestId` idempotent and threads as `messageReplyOption` says; and
 * it sends the app what Chat would, signed with keys it publishes as Google does (real X.509 certificates, a JWKS).
 */
import { X509Certificate } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  CERTS_PATH,
  JWKS_PATH,
  startGoogleChatFake,
  TOKEN_PATH,
  type RunningGoogleChatFake,
} from "../../dev/fakes/google-chat.ts";
import { verifyBearerJwt } from "../../lib/platforms/bearer-jwt.ts";
import { accessToken, forgetAccessToken, signAssertion } from "../../lib/platforms/google-chat/service-account.ts";
import { serviceAccountOf } from "../../lib/platforms/google-chat/settings.ts";
import { signingKeys } from "../../lib/platforms/jwt-keys.ts";

const BOT_SCOPE = "https://www.googleapis.com/auth/chat.bot";
const READ_SCOPE = "https://www.googleapis.com/auth/chat.app.messages.readonly";
const alice = { name: "users/42", displayName: "Alice" };
let fake: RunningGoogleChatFake;
let botToken: string;

beforeAll(async () => {
  fake = await startGoogleChatFake({ port: 0 });
});
afterAll(() => fake.close());
beforeEach(async () => {
  await fetch(`${fake.url}/__reset`, { method: "POST" });
  botToken = await token(BOT_SCOPE);
});

/** A fresh token each time: the fake's reset forgot the grants the isolate's cache would hand out again. */
const token = (scope: string) => {
  const request = { keyJson: fake.serviceAccountJson, tokenUrl: `${fake.url}${TOKEN_PATH}`, scope };
  forgetAccessToken(request);
  return accessToken({ ...request, fetch, now: Date.now });
};

async function control<T = Record<string, unknown>>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${fake.url}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function api(method: string, path: string, body?: unknown, bearer = botToken) {
  const res = await fetch(`${fake.url}/v1/${path}`, {
    method,
    headers: { Authorization: `Bearer ${bearer}` },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const newSpace = async (spaceType = "SPACE") => (await control<{ name: string }>("/__space", { spaceType })).name;

describe("the token endpoint", () => {
  it("grants a token for the service account's own assertion, and refuses one made for another audience", async () => {
    expect(botToken).toMatch(/^ya29\./);
    const account = serviceAccountOf(fake.serviceAccountJson)!;
    const now = Math.floor(Date.now() / 1000);
    const exchange = async (claims: Record<string, unknown>) => {
      const assertion = await signAssertion(account, claims);
      const res = await fetch(`${fake.url}${TOKEN_PATH}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const claims = { iss: account.client_email, scope: BOT_SCOPE, iat: now, exp: now + 3600 };
    expect((await exchange({ ...claims, aud: "https://oauth2.googleapis.com/token" })).body).toMatchObject({
      error: "invalid_grant",
    });
    expect((await exchange({ ...claims, aud: `${fake.url}${TOKEN_PATH}`, exp: now + 7200 })).status).toBe(400);
    expect((await exchange({ ...claims, aud: `${fake.url}${TOKEN_PATH}`, scope: "chat" })).body).toMatchObject({
      error: "invalid_scope",
    });
  });
});

describe("the Chat API", () => {
  it("posts in the question's thread, and a repeated requestId returns the first message, unchanged", async () => {
    const space = await newSpace();
    const { thread } = await control<{ thread: string }>("/__message", {
      space,
      from: alice,
      text: "hi",
      mention: true,
      deliver: false,
    });
    const query =
      "requestId=11111111-2222-3333-4444-555555555555&messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD";
    const first = await api("POST", `${space}/messages?${query}`, { text: "answer", thread: { name: thread } });
    expect(first).toMatchObject({ status: 200, body: { thread: { name: thread }, threadReply: true, text: "answer" } });
    const again = await api("POST", `${space}/messages?${query}`, { text: "another", thread: { name: thread } });
    expect(again.body).toMatchObject({ name: first.body.name, text: "answer" });
    // Without a reply option the thread is ignored: a new one starts.
    const top = await api("POST", `${space}/messages`, { text: "top", thread: { name: thread } });
    expect(top.body).not.toMatchObject({ thread: { name: thread } });
  });

  it("refuses a post to a space the app is not in, a token without the scope, a body past 32,000 bytes", async () => {
    const space = await newSpace();
    expect((await api("POST", `${space}/messages`, { text: "x".repeat(32_001) })).body.error).toMatchObject({
      code: 400,
      status: "INVALID_ARGUMENT",
    });
    expect((await api("POST", `${space}/messages`, { text: "hi" }, await token(READ_SCOPE))).status).toBe(403);
    expect((await api("POST", `${space}/messages`, { text: "hi" }, "ya29.made-up")).status).toBe(401);
    expect((await api("POST", `${space}/messages`, { text: "hi", cardsV3: [] })).status).toBe(400);
    await control("/__remove", { space, by: alice, deliver: false });
    expect((await api("POST", `${space}/messages`, { text: "hi" })).body.error).toMatchObject({
      status: "PERMISSION_DENIED",
    });
  });

  it("edits only the app's own messages, and only with an updateMask", async () => {
    const space = await newSpace();
    const { message } = await control<{ message: string }>("/__message", {
      space,
      from: alice,
      text: "mine",
      deliver: false,
    });
    const own = await api("POST", `${space}/messages`, { text: "first words" });
    expect((await api("PATCH", `${own.body.name}`, { text: "x" })).status).toBe(400);
    expect((await api("PATCH", `${own.body.name}?updateMask=text`, { text: "the whole answer" })).body.text).toBe(
      "the whole answer",
    );
    expect((await api("PATCH", `${message}?updateMask=text`, { text: "hijack" })).body.error).toMatchObject({
      status: "PERMISSION_DENIED",
    });
  });

  it("lists a space's messages only with the read scope an administrator approved", async () => {
    const space = await newSpace();
    await control("/__message", { space, from: alice, text: "said before", deliver: false });
    const reader = await token(READ_SCOPE);
    expect((await api("GET", `${space}/messages?pageSize=5`, undefined, reader)).status).toBe(403);
    await control("/__config", { readApproved: true });
    const listed = await api("GET", `${space}/messages?pageSize=5&orderBy=create_time%20DESC`, undefined, reader);
    expect((listed.body.messages as { text: string }[]).map((m) => m.text)).toEqual(["said before"]);
    expect((await api("GET", `${space}/messages?filter=when%3Dnow`, undefined, reader)).status).toBe(400);
  });

  it("holds 60 writes a minute a space, then 429 RESOURCE_EXHAUSTED", async () => {
    const space = await newSpace();
    const posts = await Promise.all(Array.from({ length: 61 }, () => api("POST", `${space}/messages`, { text: "hi" })));
    expect(posts.filter((p) => p.status === 429)).toHaveLength(1);
  });
});

describe("what Chat sends the app", () => {
  it("in a space only a mention or a command, in a DM everything, signed with the keys it publishes", async () => {
    const space = await newSpace();
    const quiet = await control<{ delivery: unknown }>("/__message", {
      space,
      from: alice,
      text: "chat",
      deliver: false,
    });
    expect(quiet.delivery).toBeNull();
    const dm = await newSpace("DIRECT_MESSAGE");
    const spoken = await control<{ delivery: { authorization: string; body: { type: string } } }>("/__message", {
      space: dm,
      from: alice,
      text: "hello",
      deliver: false,
    });
    expect(spoken.delivery.body.type).toBe("MESSAGE");
    const certificates = (await (await fetch(`${fake.url}${CERTS_PATH}`)).json()) as Record<string, string>;
    for (const pem of Object.values(certificates))
      expect(new X509Certificate(pem).subject).toBe("CN=chat@system.gserviceaccount.com");
    const verified = await verifyBearerJwt(spoken.delivery.authorization, {
      keys: signingKeys({ x509CertificatesUrl: `${fake.url}${CERTS_PATH}` }),
      issuers: ["chat@system.gserviceaccount.com"],
      audiences: ["123456789012"],
    });
    expect(verified.ok).toBe(true);
  });

  it("for an endpoint-URL audience, an ID token from accounts.google.com naming the add-on's service account", async () => {
    const dm = await newSpace("DIRECT_MESSAGE");
    const audience = "https://bot.example.com/google-chat/events";
    const { delivery } = await control<{ delivery: { authorization: string; body: Record<string, unknown> } }>(
      "/__message",
      { space: dm, from: alice, text: "hello", deliver: false, framing: "add-on", audience },
    );
    expect(delivery.body).toHaveProperty("chat.messagePayload.message.text", "hello");
    const verified = await verifyBearerJwt(delivery.authorization, {
      keys: signingKeys({ jwksUrl: `${fake.url}${JWKS_PATH}` }),
      issuers: ["https://accounts.google.com"],
      audiences: [audience],
    });
    if (!verified.ok) throw new Error(verified.reason);
    expect(verified.token.claims).toMatchObject({
      email: "service-123456789012@gcp-sa-gsuiteaddons.iam.gserviceaccount.com",
      email_verified: true,
    });
  });
});

/** A card of buttons, each `[text, function]`. */
const cardOf = (...buttons: [string, string][]) => [
  {
    cardId: "c",
    card: {
      sections: [
        {
          widgets: [
            {
              buttonList: {
                buttons: buttons.map(([text, fn]) => ({
                  text,
                  onClick: { action: { function: fn, parameters: [{ key: "k", value: text }] } },
                })),
              },
            },
          ],
        },
      ],
    },
  },
];

describe("cards and their clicks", () => {
  it("refuses a malformed card: an unknown field, a button without text or icon, an onClick of two kinds", async () => {
    const space = await newSpace();
    const [card] = cardOf(["Go", "go"]);
    const button = card!.card.sections[0]!.widgets[0]!.buttonList.buttons[0]!;
    const malformed = [
      [{ ...card, colour: "red" }],
      [{ cardId: "c", card: { sections: [{ widgets: [{ buttonList: { buttons: [{ ...button, text: " " }] } }] }] } }],
      [{ cardId: "c", card: { sections: [{ widgets: [{ buttonList: { buttons: [{ ...button, onClick: {} }] } }] }] } }],
      [{ cardId: "c", card: { sections: [] } }],
    ];
    for (const cardsV2 of malformed)
      expect((await api("POST", `${space}/messages`, { text: "q", cardsV2 })).body.error).toMatchObject({
        status: "INVALID_ARGUMENT",
      });
    const posted = await api("POST", `${space}/messages`, { text: "q", cardsV2: cardOf(["Go", "go"]) });
    expect(posted.body.cardsV2).toHaveLength(1);
    const cleared = await api("PATCH", `${posted.body.name}?updateMask=cardsV2`, { cardsV2: [] });
    expect(cleared.body).not.toHaveProperty("cardsV2");
    expect(cleared.body.text).toBe("q");
  });

  it("sends a click of a shown button signed as every event, and does with the app's answer what Chat does", async () => {
    const space = await newSpace();
    const posted = await api("POST", `${space}/messages`, { text: "q", cardsV2: cardOf(["Go", "go"]) });
    const clickBody = { space, message: posted.body.name, by: alice, deliver: false };
    await expect(control("/__click", { ...clickBody, button: "Stop" })).rejects.toThrow(/shows no button/);
    const clicked = await control<{
      click: string;
      delivery: { authorization: string; body: Record<string, unknown> };
    }>("/__click", { ...clickBody, button: "Go" });
    expect(clicked.delivery.body).toMatchObject({
      type: "CARD_CLICKED",
      user: alice,
      message: { name: posted.body.name },
      action: { actionMethodName: "go", parameters: [{ key: "k", value: "Go" }] },
      common: { invokedFunction: "go", parameters: { k: "Go" } },
    });
    const verified = await verifyBearerJwt(clicked.delivery.authorization, {
      keys: signingKeys({ x509CertificatesUrl: `${fake.url}${CERTS_PATH}` }),
      issuers: ["chat@system.gserviceaccount.com"],
      audiences: ["123456789012"],
    });
    expect(verified.ok).toBe(true);
    const note = { actionResponse: { type: "NEW_MESSAGE" }, text: "only you", privateMessageViewer: alice };
    expect(await control("/__click-answer", { click: clicked.click, status: 200, body: note })).toEqual({
      applied: "created",
    });
    const again = await control<{ click: string }>("/__click", { ...clickBody, button: "Go" });
    const update = { actionResponse: { type: "UPDATE_MESSAGE" }, text: "q\n\ndone", cardsV2: [] };
    expect(await control("/__click-answer", { click: again.click, status: 200, body: update })).toEqual({
      applied: "updated",
    });
    const seen = (await (await fetch(`${fake.url}/__messages?space=${space}`)).json()) as Record<string, unknown>[];
    expect(seen.map((m) => [m.text, m.privateViewer, m.cardsV2])).toEqual([
      ["q\n\ndone", undefined, []],
      ["only you", alice.name, []],
    ]);
  });

  it("lets an add-on's button be clicked only when it names the endpoint, and refuses an answer of another shape", async () => {
    const space = await newSpace();
    const url = "https://bot.example.com/google-chat/events";
    const posted = await api("POST", `${space}/messages`, { text: "q", cardsV2: cardOf(["Name", "go"], ["Url", url]) });
    const clickBody = { space, message: posted.body.name, by: alice, deliver: false, framing: "add-on" };
    await expect(control("/__click", { ...clickBody, button: "Name" })).rejects.toThrow(/endpoint URL/);
    const clicked = await control<{ click: string; delivery: { body: Record<string, unknown> } }>("/__click", {
      ...clickBody,
      button: "Url",
    });
    expect(clicked.delivery.body).toMatchObject({
      commonEventObject: { invokedFunction: url, parameters: { k: "Url" } },
      chat: { buttonClickedPayload: { message: { name: posted.body.name }, isDialogEvent: false } },
    });
    const chatApi = { actionResponse: { type: "UPDATE_MESSAGE" }, text: "done" };
    expect(await control("/__click-answer", { click: clicked.click, status: 200, body: chatApi })).toHaveProperty(
      "refused",
    );
  });
});
