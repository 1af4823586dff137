/**
 * @module
 * The Teams fake is as strict as Microsoft (dev/fakes/teams): its identity platform grants a token only for the
 * bot's own app id and secret at its tenant for the Bot Connector's scope; its Connector refuses a missing token,
 * an unknown conversation or reply chain, an edit of an activity the bot did not send, a body Teams refuses and the
 * operations past a conversation's limit (429 with Retry-After); and what it sends the bot verifies with the
 * Worker's own check against the keys it publishes.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTeamsFake } from "../../dev/fakes/teams.ts";
import { verifyTeamsRequest } from "../../lib/platforms/teams/verify.ts";
import type { TeamsSettings } from "../../lib/platforms/teams/settings.ts";
import type { AdapterContext } from "../../lib/platforms/adapter.ts";

type Fake = Awaited<ReturnType<typeof startTeamsFake>>;
let fake: Fake;
let token: string;
const alice = { id: "29:alice", name: "Alice" };
const SCOPE = "https://api.botframework.com/.default";

beforeAll(async () => {
  fake = await startTeamsFake({ port: 0 });
});
afterAll(() => fake.close());
beforeEach(async () => {
  await fetch(`${fake.url}/__reset`, { method: "POST" });
  const res = await tokenRequest({});
  token = ((await res.json()) as { access_token: string }).access_token;
});

function tokenRequest(overrides: Record<string, string>, tenant = "botframework.com") {
  const form = {
    grant_type: "client_credentials",
    client_id: fake.app.appId,
    client_secret: fake.app.password,
    scope: SCOPE,
    ...overrides,
  };
  return fetch(`${fake.url}/${tenant}/oauth2/v2.0/token`, { method: "POST", body: new URLSearchParams(form) });
}

async function control<T = Record<string, unknown>>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${fake.url}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function connector(method: "POST" | "PUT", conversation: string, body: unknown, activityId?: string) {
  const path = `${fake.serviceUrl}v3/conversations/${encodeURIComponent(conversation)}/activities`;
  const res = await fetch(activityId ? `${path}/${encodeURIComponent(activityId)}` : path, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const newConversation = async (type: string) => (await control<{ id: string }>("/__conversation", { type })).id;

describe("the identity platform", () => {
  it("grants a token only for the bot's app id and secret, at its tenant, for the Connector's scope", async () => {
    expect((await tokenRequest({})).status).toBe(200);
    const refused = async (res: Promise<Response>) => {
      const answer = await res;
      return [answer.status, ((await answer.json()) as { error: string }).error];
    };
    expect(await refused(tokenRequest({ client_secret: "wrong" }))).toEqual([401, "invalid_client"]);
    expect(await refused(tokenRequest({ client_id: "00000000-0000-4000-8000-000000000000" }))).toEqual([
      400,
      "unauthorized_client",
    ]);
    expect(await refused(tokenRequest({ scope: "https://graph.microsoft.com/.default" }))).toEqual([
      400,
      "invalid_scope",
    ]);
    expect(await refused(tokenRequest({ grant_type: "password" }))).toEqual([400, "unsupported_grant_type"]);
    expect(await refused(tokenRequest({}, "72f988bf-86f1-41af-91ab-2d7cd011db47"))).toEqual([
      400,
      "unauthorized_client",
    ]);
  });
});

describe("the Bot Connector", () => {
  it("posts a reply in a channel's reply chain and lets the bot replace only its own message", async () => {
    const channel = await newConversation("channel");
    const said = await control<{ id: string; root: string }>("/__message", {
      conversation: channel,
      from: alice,
      text: "hi",
    });
    const chain = `${channel};messageid=${said.root}`;
    const posted = await connector("POST", chain, { type: "message", text: "**hello**", textFormat: "markdown" });
    expect(posted.status).toBe(201);
    const id = String(posted.body.id);
    expect((await connector("PUT", chain, { type: "message", text: "hello, all" }, id)).status).toBe(200);
    expect((await connector("PUT", chain, { type: "message", text: "mine now" }, said.id)).status).toBe(403);
    expect((await connector("PUT", chain, { type: "message", text: "x" }, "1")).body).toMatchObject({
      error: { code: "ActivityNotFound" },
    });
    expect((await connector("POST", `${channel};messageid=404`, { type: "message", text: "x" })).status).toBe(404);
  });

  it("refuses a missing token, an unknown conversation and bodies Teams refuses", async () => {
    const chat = await newConversation("personal");
    token = "";
    expect((await connector("POST", chat, { type: "message", text: "x" })).status).toBe(401);
    token = ((await (await tokenRequest({})).json()) as { access_token: string }).access_token;
    expect((await connector("POST", "a:nobody", { type: "message", text: "x" })).body).toMatchObject({
      error: { code: "ConversationNotFound" },
    });
    expect((await connector("POST", chat, { type: "message", text: " " })).status).toBe(400);
    expect((await connector("POST", chat, { type: "message", text: "x", textFormat: "html" })).status).toBe(400);
    expect((await connector("POST", chat, { type: "message", text: "x".repeat(21_000) })).status).toBe(413);
    expect((await connector("POST", chat, { type: "typing" })).status).toBe(201);
  });

  it("takes an Adaptive Card Teams renders and refuses one it would not, and a card's click is an invoke", async () => {
    const chat = await newConversation("personal");
    const card = (version: string, type = "Action.Execute") => ({
      type: "message",
      text: "may I?",
      attachments: [
        {
          contentType: "application/vnd.microsoft.card.adaptive",
          content: {
            type: "AdaptiveCard",
            version,
            actions: [{ type, title: "Approve", data: { control: "approve" } }],
          },
        },
      ],
    });
    expect((await connector("POST", chat, card("1.4"))).body).toMatchObject({ error: { code: "BadArgument" } });
    expect((await connector("POST", chat, card("1.6"))).status).toBe(400);
    expect((await connector("POST", chat, card("1.5", "Action.Http"))).status).toBe(400);
    const posted = await connector("POST", chat, card("1.5"));
    expect(posted.status).toBe(201);
    const { delivery } = await control<{ delivery: { body: Record<string, unknown> } }>("/__click", {
      conversation: chat,
      activity: posted.body.id,
      from: alice,
      control: "approve",
    });
    expect(delivery.body).toMatchObject({
      type: "invoke",
      name: "adaptiveCard/action",
      replyToId: posted.body.id,
      from: { id: alice.id },
      value: { action: { type: "Action.Execute", data: { control: "approve" } }, trigger: "manual" },
    });
    const answer = (body: unknown) => control("/__invoke-answer", { activity: posted.body.id, status: 200, body });
    expect(await answer({ type: "application/vnd.microsoft.activity.message", value: "no" })).toHaveProperty("refused");
    expect(await answer({ statusCode: 200, type: "application/vnd.microsoft.activity.message", value: "no" })).toEqual({
      shownToClicker: "no",
    });
    // An update without the card takes it away: its button can no longer be clicked.
    expect((await connector("PUT", chat, { type: "message", text: "decided" }, String(posted.body.id))).status).toBe(
      200,
    );
    const click = { conversation: chat, activity: posted.body.id, from: alice, control: "approve" };
    await expect(control("/__click", click)).rejects.toThrow();
  });

  it("answers 429 with Retry-After past seven operations a second in a conversation", async () => {
    const chat = await newConversation("groupChat");
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 8; i++) {
      const res = await connector("POST", chat, { type: "message", text: `n${i}` });
      statuses.push(res.status);
      retryAfter ??= res.headers.get("Retry-After");
    }
    expect(statuses.slice(0, 7).every((s) => s === 201)).toBe(true);
    expect(statuses[7]).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  });
});

describe("what the fake sends the bot", () => {
  const ctx = () =>
    ({
      config: {
        TEAMS_APP_ID: fake.app.appId,
        TEAMS_OPENID_METADATA_URL: `${fake.url}/v1/.well-known/openidconfiguration`,
        TEAMS_EXTRA_SERVICE_URL: fake.url,
      } as TeamsSettings,
      fetch,
      now: Date.now,
    }) as unknown as AdapterContext<TeamsSettings>;
  const request = (delivery: { body: unknown; authorization: string }) => ({
    headers: new Headers({ Authorization: delivery.authorization }),
    rawBody: JSON.stringify(delivery.body),
    url: "https://worker.test/teams/messages",
  });

  it("verifies with the bot's check, and a channel message without a mention reaches it only with consent", async () => {
    const channel = await newConversation("channel");
    const mention = await control<{ delivery: { body: unknown; authorization: string } }>("/__message", {
      conversation: channel,
      from: alice,
      text: "hello",
      mention: true,
    });
    expect(await verifyTeamsRequest(ctx(), request(mention.delivery))).toEqual({ ok: true });
    const unendorsed = await control<{ delivery: { body: unknown; authorization: string } }>("/__message", {
      conversation: channel,
      from: alice,
      text: "hello",
      mention: true,
      key: "unendorsed",
    });
    expect(await verifyTeamsRequest(ctx(), request(unendorsed.delivery))).toEqual({
      ok: false,
      reason: "not_endorsed",
    });
    expect(await control("/__message", { conversation: channel, from: alice, text: "chatter" })).toMatchObject({
      delivery: null,
    });
    expect(
      await control("/__message", { conversation: channel, from: alice, text: "chatter", rsc: true }),
    ).toMatchObject({ delivery: { body: { text: "chatter" } } });
  });

  it("posts what people write to the bot's messaging endpoint, with its token, unless told not to", async () => {
    const received: { authorization?: string; body: string }[] = [];
    const endpoint = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        received.push({ authorization: req.headers.authorization, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = endpoint.address() as AddressInfo;
      await control("/__config", { endpoint: `http://127.0.0.1:${port}/teams/messages` });
      const chat = await newConversation("personal");
      const said = await control<{ delivery: { status: number; authorization: string } }>("/__message", {
        conversation: chat,
        from: alice,
        text: "hello",
      });
      expect(said.delivery.status).toBe(200);
      expect(received).toEqual([
        { authorization: said.delivery.authorization, body: expect.stringContaining("hello") },
      ]);
      await control("/__message", { conversation: chat, from: alice, text: "again", deliver: false });
      expect(received).toHaveLength(1);
    } finally {
      await new Promise((resolve) => endpoint.close(resolve));
    }
  });
});

describe("the Connector's streaming", () => {
  const streamInfo = (fields: Record<string, unknown>) => [{ type: "streaminfo", ...fields }];
  const update = (text: string, fields: Record<string, unknown>) => ({
    type: "typing",
    text,
    entities: streamInfo({ streamType: "streaming", ...fields }),
  });
  const final = (text: string, streamId: string) => ({
    type: "message",
    text,
    entities: streamInfo({ streamType: "final", streamId }),
  });
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const code = (answer: { body: Record<string, unknown> }) =>
    (answer.body.error as { code?: string } | undefined)?.code;

  it("streams in a 1:1 chat: 201 with the stream's id, then 202s, the final message ending it", async () => {
    const chat = await newConversation("personal");
    const started = await connector("POST", chat, {
      type: "typing",
      text: "Looking it up…",
      entities: streamInfo({ streamType: "informative", streamSequence: 1 }),
    });
    expect(started.status).toBe(201);
    const streamId = String(started.body.id);
    await wait(1_050);
    expect((await connector("POST", chat, update("A brown", { streamId, streamSequence: 2 }))).status).toBe(202);
    expect((await connector("POST", chat, final("A brown fox.", streamId))).status).toBe(202);
    const [message] = (await (await fetch(`${fake.url}/__activities?conversation=${chat}`)).json()) as {
      id: string;
      text: string;
      revisions: { method: string }[];
    }[];
    expect(message).toMatchObject({ id: streamId, text: "A brown fox." });
    expect(message!.revisions.map((r) => r.method)).toEqual(["stream", "stream", "final"]);
  });

  it("refuses a stream outside 1:1 chats, a start not numbered 1, and an update after the final message", async () => {
    const group = await newConversation("groupChat");
    const refused = await connector("POST", group, update("hi", { streamSequence: 1 }));
    expect([refused.status, code(refused)]).toEqual([400, "BadArgument"]);
    const chat = await newConversation("personal");
    expect((await connector("POST", chat, update("hi", { streamSequence: 2 }))).status).toBe(400);
    const streamId = String((await connector("POST", chat, update("hi", { streamSequence: 1 }))).body.id);
    expect((await connector("POST", chat, final("hi there", streamId))).status).toBe(202);
    await wait(1_050);
    const after = await connector("POST", chat, update("hi there, again", { streamId, streamSequence: 2 }));
    expect([after.status, code(after)]).toEqual([403, "ContentStreamNotAllowed"]);
  });

  it("drops an update out of sequence (202 with Teams' code) and refuses one within a second of the last", async () => {
    const chat = await newConversation("personal");
    const streamId = String((await connector("POST", chat, update("one", { streamSequence: 1 }))).body.id);
    const soon = await connector("POST", chat, update("one two", { streamId, streamSequence: 2 }));
    expect([soon.status, code(soon)]).toEqual([429, "TooManyRequests"]);
    await wait(1_050);
    const stale = await connector("POST", chat, update("one two", { streamId, streamSequence: 1 }));
    expect([stale.status, code(stale)]).toEqual([202, "ContentStreamSequenceOrderPreConditionFailed"]);
    const calls = (await (await fetch(`${fake.url}/__calls?route=stream+update`)).json()) as { refused?: string }[];
    expect(calls.map((c) => c.refused)).toEqual([
      undefined,
      "TooManyRequests",
      "ContentStreamSequenceOrderPreConditionFailed",
    ]);
    const [message] = (await (await fetch(`${fake.url}/__activities?conversation=${chat}`)).json()) as {
      text: string;
    }[];
    expect(message!.text).toBe("one");
  });

  it("ends a stream the person stops: its next update is 403, and the message keeps what it showed", async () => {
    const chat = await newConversation("personal");
    const streamId = String((await connector("POST", chat, update("half an", { streamSequence: 1 }))).body.id);
    expect(await control("/__stop-stream", { conversation: chat })).toEqual({ stopped: true });
    await wait(1_050);
    const next = await connector("POST", chat, update("half an answer", { streamId, streamSequence: 2 }));
    expect([next.status, code(next)]).toEqual([403, "ContentStreamNotAllowed"]);
    expect((await connector("PUT", chat, { type: "message", text: "half an answer" }, streamId)).status).toBe(200);
  });
});
