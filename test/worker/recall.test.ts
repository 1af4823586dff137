/**
 * @module
 * Recall across time, end to end on the local stack: the memory job indexes a conversation's passages in the
 * Upstash Vector stand-in, the conversation expires (the production-timing kit ages its Redis keys by days), and a
 * later answer in the same channel gets the passage in its prompt's data block; never an answer in another
 * channel, in another tenant, or after the person asked to be forgotten. The cron deletes passages past retention,
 * and a Vector that refuses every request stops neither the answers nor the facts.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import app from "../../functions/index.ts";
import { DATA_BLOCK_OPEN } from "../../lib/context/data-block.ts";
import { FORGET_CONFIRMATION } from "../../lib/notices.ts";
import { RecallIndex } from "../../lib/memory/recall/client.ts";
import { recallNamespace } from "../../lib/memory/recall/namespace.ts";
import type { Passage } from "../../lib/memory/recall/passage.ts";
import { replyPrompt, storedFacts } from "../support/memory.ts";
import { scriptModel } from "../support/model.ts";
import { prodTimingSuite } from "../support/prod-timing.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackPlace,
  signedSlackRequest,
  slackMessageEvent,
  slackPosts,
} from "../support/slack.ts";
import { callWorker, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "recall";
const VECTOR = { url: inject("vectorRestUrl"), token: inject("vectorRestToken") };
const kit = prodTimingSuite(SUITE, {
  RECALL_ENABLED: "true",
  UPSTASH_VECTOR_REST_URL: VECTOR.url,
  UPSTASH_VECTOR_REST_TOKEN: VECTOR.token,
  RECALL_RETENTION_DAYS: "30",
  // The Slack fake keeps wall-clock time while this suite's clock jumps days: reading the channel when a
  // conversation starts would find "days-old" talk inside BACKFILL_MINUTES. Recall is what this suite measures.
  BACKFILL_MESSAGES: "0",
});
const DAY_MS = 86_400_000;
const index = new RecallIndex(VECTOR);

pumpJobsDuringSuite(kit.env, SUITE);

/** A bot whose Vector index refuses it (a wrong token), with facts on. */
const DOWN_SUITE = "recalldown";
const down = prodTimingSuite(DOWN_SUITE, {
  MEMORY_ENABLED: "true",
  UPSTASH_VECTOR_REST_URL: VECTOR.url,
  UPSTASH_VECTOR_REST_TOKEN: "not-the-vector-token",
});
pumpJobsDuringSuite(down.env, DOWN_SUITE);

type Place = { team: string; channel: string };

/** A mention in `place`, answered, with its memory job run (which indexes the conversation). */
async function mention(place: Place, user: string, text: string): Promise<void> {
  const event = slackMessageEvent({ ...place, user, text: `<@${BOT_USER_ID}> ${text}`, ts: distinctSlackTs() });
  expect((await callWorker(kit.env, await signedSlackRequest(event.body))).status).toBe(200);
  // The reply job, then the memory job it published.
  for (let round = 0; round < 5 && (await kit.deliveriesSettled()).deliveries.length > 0; round++);
}

/** The data block of the prompt that answered the message carrying `marker` ("" when it had none). */
async function dataBlockOf(marker: string): Promise<string> {
  const prompt = await replyPrompt(marker);
  return prompt.messages.find((m) => m.content.startsWith(DATA_BLOCK_OPEN))?.content ?? "";
}

/** Days go by: every conversation of the suite has long expired. */
async function daysPass(days: number): Promise<void> {
  const { expiredKeys } = await kit.timePasses(days * DAY_MS);
  expect(expiredKeys.some((key) => key.endsWith(":state"))).toBe(true);
}

describe("recall across time", () => {
  it("brings a detail of an expired conversation back days later in the same channel, never in another channel or tenant", async () => {
    const place = newSlackPlace("RCL");
    const detail = `kumquat-${place.id}`;
    await mention(place, "UALICE", `we decided the release codename is ${detail}, please keep it in mind`);
    expect(await slackPosts(place.channel)).toHaveLength(1);
    await daysPass(3);

    // Asked elsewhere first, while the detail's passage is the only one of the tenant: nothing else could outrank it.
    const otherChannel = { team: place.team, channel: `${place.channel}B` };
    await mention(otherChannel, "UBOB", `what did we decide for the release codename? channel-${place.id}`);
    expect(JSON.stringify((await replyPrompt(`channel-${place.id}`)).messages)).not.toContain(detail);
    const otherTenant = { team: `${place.team}B`, channel: place.channel };
    await mention(otherTenant, "UBOB", `what did we decide for the release codename? tenant-${place.id}`);
    expect(JSON.stringify((await replyPrompt(`tenant-${place.id}`)).messages)).not.toContain(detail);

    await mention(place, "UBOB", `what did we decide for the release codename? same-${place.id}`);
    const same = await dataBlockOf(`same-${place.id}`);
    expect(same).toContain(detail);
    expect(same).toContain('"earlier"');
    // A new conversation: the detail is data from an earlier one, not one of the prompt's turns.
    const prompt = await replyPrompt(`same-${place.id}`);
    expect(
      prompt.messages
        .filter((m) => !m.content.startsWith(DATA_BLOCK_OPEN))
        .map((m) => m.content)
        .join("\n"),
    ).not.toContain(detail);
  });

  it("recalls nothing of a person after 'forget me', and still recalls the others", async () => {
    const place = newSlackPlace("RCF");
    const hers = `kumquat-${place.id}`;
    const his = `persimmon-${place.id}`;
    await mention(place, "UALICE", `we decided the release codename is ${hers}, please keep it in mind`);
    await daysPass(1);
    await mention(place, "UBOB", `we decided the release mascot is ${his}, please keep it in mind`);
    await daysPass(1);
    await mention(place, "UALICE", "forget me");
    expect((await slackPosts(place.channel)).map((p) => p.text)).toContain(FORGET_CONFIRMATION);
    await daysPass(1);

    await mention(
      place,
      "UCAROL",
      `what did we decide for the release codename and the release mascot? after-${place.id}`,
    );
    const block = await dataBlockOf(`after-${place.id}`);
    expect(block).toContain(his);
    expect(block).not.toContain(hers);
  });

  it("forgets the bot's retelling of a person with them, when it fell into a passage apart from their message", async () => {
    const place = newSlackPlace("RCT");
    const street = `Elm${place.id}`;
    // Her message fills a passage on its own (300 tokens): the bot's answer that retells it starts the next one.
    const filler = Array.from({ length: 160 }, (_, i) => `w${i}`).join(" ");
    await scriptModel({
      match: `addr-${place.id}`,
      reply: `Noted: Alice's new address is 12 ${street} Street.`,
      times: 1,
    });
    await mention(
      place,
      "UALICE",
      `my new address is 12 ${street} Street, please keep it in mind. addr-${place.id} ${filler}`,
    );
    expect((await slackPosts(place.channel)).map((p) => p.text)).toEqual([
      `Noted: Alice's new address is 12 ${street} Street.`,
    ]);
    await daysPass(1);
    await mention(place, "UALICE", "forget me");
    expect((await slackPosts(place.channel)).map((p) => p.text)).toContain(FORGET_CONFIRMATION);
    await daysPass(1);

    await mention(place, "UCAROL", `what is Alice's new address, the one on ${street} Street? after-${place.id}`);
    expect(await dataBlockOf(`after-${place.id}`)).not.toContain(street);
  });

  it("has the cron delete passages older than RECALL_RETENTION_DAYS and keep the newer ones", async () => {
    const place = newSlackPlace("RCR");
    await mention(place, "UALICE", `we decided the release codename is fresh-${place.id}`);
    const namespace = recallNamespace(`t-${SUITE}`, { platform: "slack", tenant: place.team });
    const old = Date.now() - 31 * DAY_MS;
    const stale: Passage = {
      id: `c:old-${place.id}:m:1`,
      text: `UALICE: the release codename was stale-${place.id}`,
      metadata: {
        platform: "slack",
        tenant: place.team,
        channel: place.channel,
        visibility: "public",
        people: ["UALICE"],
        start: old,
        end: old,
        conversation: `old-${place.id}`,
        kind: "messages",
      },
    };
    await index.upsert(namespace, [stale]);
    const texts = async () => {
      const found = await index.search(namespace, { text: "release codename", filter: "kind = 'messages'", topK: 10 });
      return found.hits.map((h) => h.text).join("\n");
    };
    expect(await texts()).toContain(`stale-${place.id}`);

    const ctx = createExecutionContext();
    await app.scheduled(createScheduledController({ cron: "* * * * *" }), kit.env, ctx);
    await waitOnExecutionContext(ctx);

    const left = await texts();
    expect(left).not.toContain(`stale-${place.id}`);
    expect(left).toContain(`fresh-${place.id}`);
  });

  it("still answers, and still learns facts, when Vector refuses every request; the memory job is retried for the passages", async () => {
    const place = newSlackPlace("RCD");
    const event = slackMessageEvent({
      ...place,
      user: "URUNNER",
      text: `<@${BOT_USER_ID}> I'm training for a marathon in April. down-${place.id}`,
      ts: distinctSlackTs(),
    });
    expect((await callWorker(down.env, await signedSlackRequest(event.body))).status).toBe(200);
    expect((await down.deliveriesSettled()).deliveries).toMatchObject([
      { path: `/t/${DOWN_SUITE}/jobs/reply`, status: 200, outcome: "done" },
      { path: `/t/${DOWN_SUITE}/jobs/memory`, status: 500, outcome: "retry" },
    ]);
    expect(await slackPosts(place.channel)).toHaveLength(1);
    expect(
      await storedFacts(down.redis, `t-${DOWN_SUITE}`, { platform: "slack", tenant: place.team }, "URUNNER"),
    ).toContain("marathon");
  });
});
