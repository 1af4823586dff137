/**
 * @module
 * What a pasted file leaves behind: its bytes and its text reach the model and nothing else. After a screenshot and
 * a text file are answered (memory and recall on, so the memory job and the recall index see the exchange), the
 * Worker's log lines, every Redis key of the bot, what the QStash stand-in holds and the recall index are scanned
 * for the picture's base64 and the file's words. And a picture counts toward the tenant's daily token budget at
 * its image price.
 */

import { Redis } from "@upstash/redis/cloudflare";
import { Index } from "@upstash/vector";
import { describe, expect, inject, it } from "vitest";
import { bytesToBase64 } from "../../lib/base64.ts";
import { imageTokens } from "../../lib/files/image-tokens.ts";
import { tenantBudgetKeys } from "../../lib/keys.ts";
import { base64Text, slackFile } from "../support/files.ts";
import { logLinesDuring, whatQStashHolds } from "../support/held-data.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackPlace,
  signedSlackRequest,
  slackMessageEvent,
  slackPosts,
} from "../support/slack.ts";
import { callWorker, eventually, jobsQuiet, pumpJobsDuringSuite, suiteEnv } from "../support/worker.ts";

const SUITE = "filespriv";
const VECTOR = { url: inject("vectorRestUrl"), token: inject("vectorRestToken") };
const env = suiteEnv(SUITE, {
  MEMORY_ENABLED: "true",
  RECALL_ENABLED: "true",
  UPSTASH_VECTOR_REST_URL: VECTOR.url,
  UPSTASH_VECTOR_REST_TOKEN: VECTOR.token,
  TENANT_DAILY_TOKEN_BUDGET: "1000000",
});
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const pump = pumpJobsDuringSuite(env, SUITE);

/** Every key of the suite's bot with its value, as text. */
async function whatRedisHolds(): Promise<string> {
  const keys = await redis.keys(`t-${SUITE}:*`);
  const values = await Promise.all(
    keys.map(async (key) => {
      const type = await redis.type(key);
      if (type === "string") return `${key} ${JSON.stringify(await redis.get(key))}`;
      if (type === "zset") return `${key} ${JSON.stringify(await redis.zrange(key, 0, -1))}`;
      if (type === "list") return `${key} ${JSON.stringify(await redis.lrange(key, 0, -1))}`;
      if (type === "hash") return `${key} ${JSON.stringify(await redis.hgetall(key))}`;
      if (type === "set") return `${key} ${JSON.stringify(await redis.smembers(key))}`;
      return key;
    }),
  );
  return values.join("\n");
}

/** Every passage of the recall index's namespaces, with its data and metadata. */
async function whatVectorHolds(): Promise<string> {
  const index = new Index(VECTOR);
  const namespaces = await index.listNamespaces();
  const pages = await Promise.all(
    namespaces.map((ns) =>
      index.range({ cursor: "0", limit: 1_000, includeData: true, includeMetadata: true }, { namespace: ns }),
    ),
  );
  return JSON.stringify(pages.flatMap((page) => page.vectors));
}

describe("what a pasted file leaves behind", () => {
  it("keeps the picture's bytes and the file's words out of logs, Redis, QStash and the recall index, and bills the picture", async () => {
    const place = newSlackPlace("FP");
    const secret = `zebra-${place.id}-quartz`;
    const shot = await slackFile({ name: "secret.png", png: { width: 1024, height: 768, colour: "#822aaa" } });
    const bytes = (await (
      await fetch(String(shot.url_private), { headers: { Authorization: "Bearer xoxb-test-bot-token" } })
    ).arrayBuffer()) as ArrayBuffer;
    const base64 = bytesToBase64(new Uint8Array(bytes));
    const notes = await slackFile({
      name: "notes.txt",
      type: "text/plain",
      base64: base64Text(`the vault code is ${secret}\n`),
    });
    const lines = await logLinesDuring(async () => {
      const event = slackMessageEvent({
        ...place,
        user: "UALICE",
        text: `<@${BOT_USER_ID}> what do you make of these? priv-${place.id}`,
        files: [shot, notes],
        ts: distinctSlackTs(),
      });
      expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
      await eventually(async () => (await slackPosts(place.channel)).length === 1, 20_000, "the answer");
      await jobsQuiet(pump);
    });
    expect((await slackPosts(place.channel))[0]!.text).toContain("PNG picture, 1024×768, mostly purple");
    // The middle of the picture's base64 (its start is every PNG's) and the file's words.
    const needles = [base64.slice(40, 100), secret];
    const held = {
      logs: lines.join("\n"),
      redis: await whatRedisHolds(),
      qstash: await whatQStashHolds(redis),
      vector: await whatVectorHolds(),
    };
    expect(held.redis).toContain(`priv-${place.id}`);
    expect(held.vector).toContain(`priv-${place.id}`);
    for (const [where, text] of Object.entries(held))
      for (const needle of needles) expect(text.includes(needle), `${needle} in ${where}`).toBe(false);
    const used = Number(
      await redis.get(
        tenantBudgetKeys(`t-${SUITE}`, { platform: "slack", tenant: place.team }, new Date().toISOString().slice(0, 10))
          .used,
      ),
    );
    expect(used).toBeGreaterThan(imageTokens(1024, 768));
  });
});
