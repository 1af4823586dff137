/**
 * @module
 * Google Chat's edges on the local stack: a delivery without a token, with one signed by a key that is not
 * Google's, made for another audience (a project number or an endpoint URL that is not this app's) or expired gets
 * 401 and records nothing, one that cannot be checked (Google's keys could not be fetched) 503, so that Chat
 * delivers it again; an endpoint-URL audience takes Chat's ID token and an add-on's, and nobody else's
 * account; a space the app is removed from is cleaned up alone; a pasted file is read with media.download.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import { adapterContext } from "../../lib/platforms/context.ts";
import { googleChat } from "../../lib/platforms/google-chat/index.ts";
import { createRuntime } from "../../lib/runtime.ts";
import {
  chatRequest,
  deliver,
  ENDPOINT_URL,
  googleChatSuiteEnv,
  newPerson,
  newSpace,
  PROJECT_NUMBER,
  pastedFile,
  removeApp,
  say,
  spaceMessages,
} from "../support/google-chat.ts";
import { modelRequests } from "../support/model.ts";
import { callWorker, eventually, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "gchatlife";
const env = googleChatSuiteEnv(SUITE);
const endpointEnv = googleChatSuiteEnv(SUITE, { GOOGLE_CHAT_AUDIENCE: ENDPOINT_URL });
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const prefix = `t-${SUITE}`;

pumpJobsDuringSuite(env, SUITE);

const spaceKeys = (space: string) => redis.keys(`${prefix}:*google-chat|${space.slice("spaces/".length)}|*`);

describe("the bearer token of a Google Chat delivery", () => {
  it("is refused (401) when missing, forged, for another audience, and nothing is recorded", async () => {
    const alice = newPerson("Alice");
    const dm = await newSpace("DIRECT_MESSAGE");
    const { delivery } = await say(dm, alice, "hello?");
    const [head, body, signature] = delivery!.authorization.slice("Bearer ".length).split(".");
    const flipped = `${signature!.slice(0, -2)}${signature!.endsWith("AA") ? "BB" : "AA"}`;
    const refused = [
      chatRequest(delivery!, null),
      chatRequest(delivery!, "Bearer not-a-jwt"),
      chatRequest(delivery!, `Bearer ${head}.${body}.${flipped}`),
      chatRequest((await say(dm, alice, "hello?", { audience: "999999999999" })).delivery!),
      // A token made for an endpoint URL is not one for this app's project number.
      chatRequest((await say(dm, alice, "hello?", { audience: ENDPOINT_URL })).delivery!),
    ];
    for (const request of refused) expect((await callWorker(env, request)).status).toBe(401);
    expect(await spaceKeys(dm)).toEqual([]);
  });

  it("answers 503 when Google's keys cannot be fetched, so that Chat delivers again, and records nothing", async () => {
    const dm = await newSpace("DIRECT_MESSAGE");
    const { delivery } = await say(dm, newPerson("Dee"), "hello?");
    // A key source no one answers on (the discard port): the isolate has no keys cached for it.
    const keysDown = googleChatSuiteEnv(SUITE, { GOOGLE_CHAT_CERTS_URL: "http://127.0.0.1:9/certs" });
    expect((await callWorker(keysDown, chatRequest(delivery!))).status).toBe(503);
    expect(await spaceKeys(dm)).toEqual([]);
  });

  it("for an endpoint-URL audience, is Chat's or the add-on's ID token for that URL, never another URL's", async () => {
    const bob = newPerson("Bob");
    const dm = await newSpace("DIRECT_MESSAGE");
    const ctx = adapterContext(createRuntime(endpointEnv), googleChat);
    const verify = async (opts: Parameters<typeof say>[3]) => {
      const { delivery } = await say(dm, bob, "hi", opts);
      const request = chatRequest(delivery!);
      return googleChat.verify(ctx, { headers: request.headers, rawBody: await request.text(), url: request.url });
    };
    expect(await verify({ audience: ENDPOINT_URL })).toEqual({ ok: true });
    expect(await verify({ audience: ENDPOINT_URL, framing: "add-on" })).toEqual({ ok: true });
    expect(await verify({ audience: "https://another.example/google-chat/events" })).toEqual({
      ok: false,
      reason: "wrong_audience",
    });
    expect(await verify({ audience: PROJECT_NUMBER })).toMatchObject({ ok: false });
  });

  it("is refused once expired (Google's tokens live an hour; five minutes' skew)", async () => {
    const dm = await newSpace("DIRECT_MESSAGE");
    const { delivery } = await say(dm, newPerson("Cy"), "hi");
    const later = createRuntime(env);
    const ctx = { ...adapterContext(later, googleChat), now: () => Date.now() + 66 * 60_000 };
    const request = chatRequest(delivery!);
    expect(
      await googleChat.verify(ctx, { headers: request.headers, rawBody: await request.text(), url: request.url }),
    ).toEqual({ ok: false, reason: "expired" });
  });
});

describe("a Google Chat space the app is removed from", () => {
  it("is cleaned up alone: its keys go, another space's stay", async () => {
    const alice = newPerson("Alice");
    const [left, stays] = [await newSpace("SPACE"), await newSpace("SPACE")];
    for (const space of [left, stays])
      await deliver(env, (await say(space, alice, "what is a monad?", { mention: true })).delivery);
    await eventually(
      async () => (await spaceMessages(left)).length === 1 && (await spaceMessages(stays)).length === 1,
      20_000,
      "both answered",
    );
    expect((await spaceKeys(left)).length).toBeGreaterThan(0);
    expect((await deliver(env, await removeApp(left, alice))).status).toBe(200);
    await eventually(async () => (await spaceKeys(left)).length === 0, 15_000, "the left space's keys gone");
    expect((await spaceKeys(stays)).length).toBeGreaterThan(0);
  });
});

describe("a file pasted in Google Chat", () => {
  it("is read by the answer through media.download with the app's token", async () => {
    const dana = newPerson("Dana");
    const dm = await newSpace("DIRECT_MESSAGE");
    const marker = `release-${Date.now()}`;
    const file = await pastedFile({ name: "notes.txt", type: "text/plain", base64: btoa(`the codename is ${marker}`) });
    await deliver(env, (await say(dm, dana, "what is the codename in my notes?", { attachment: [file] })).delivery);
    await eventually(async () => (await spaceMessages(dm)).length === 1, 20_000, "the answer");
    const [prompt] = await modelRequests("what is the codename in my notes?");
    expect(JSON.stringify(prompt!.messages)).toContain(marker);
  });
});
