/**
 * search_memory (docs/tools.md): the model's own recall query finds what automatic recall could, and nothing more:
 * only the answered place's channel, at its visibility, in its tenant, and nothing of a person after "forget me".
 */
import { describe, expect, inject, it } from "vitest";
import { FORGET_CONFIRMATION } from "../../lib/notices.ts";
import { RecallIndex } from "../../lib/memory/recall/client.ts";
import { recallNamespace } from "../../lib/memory/recall/namespace.ts";
import type { Passage, PassageMetadata } from "../../lib/memory/recall/passage.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackPlace,
  signedSlackRequest,
  slackMessageEvent,
  slackPosts,
} from "../support/slack.ts";
import { callWorker, eventually, pumpJobsDuringSuite, suiteEnv } from "../support/worker.ts";

const SUITE = "toolsmemory";
const VECTOR = { url: inject("vectorRestUrl"), token: inject("vectorRestToken") };
const env = suiteEnv(SUITE, {
  TOOLS: "search_memory",
  RECALL_ENABLED: "true",
  UPSTASH_VECTOR_REST_URL: VECTOR.url,
  UPSTASH_VECTOR_REST_TOKEN: VECTOR.token,
});
pumpJobsDuringSuite(env, SUITE);
const index = new RecallIndex(VECTOR);
const DAY_MS = 86_400_000;

type Place = { team: string; channel: string; id: string };

/** A passage of an earlier conversation two days ago, said by `person`. */
function passage(
  place: { team: string; channel: string },
  text: string,
  person: string,
  extra: Partial<PassageMetadata> = {},
): Passage {
  const at = Date.now() - 2 * DAY_MS;
  const conversation = `earlier-${crypto.randomUUID()}`;
  return {
    id: `c:${conversation}:m:1`,
    text: `${person}: ${text}`,
    metadata: {
      platform: "slack",
      tenant: place.team,
      channel: place.channel,
      visibility: "public",
      people: [person],
      start: at,
      end: at,
      conversation,
      kind: "messages",
      ...extra,
    },
  };
}

async function say(place: Place, user: string, text: string, posts: number): Promise<string> {
  const event = slackMessageEvent({ ...place, user, text: `<@${BOT_USER_ID}> ${text}`, ts: distinctSlackTs() });
  expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
  const all = await eventually(
    async () => {
      const seen = await slackPosts(place.channel);
      return seen.length >= posts && seen;
    },
    15_000,
    "the answer",
  );
  return all[posts - 1]!.text;
}

describe("search_memory", () => {
  it("finds the place's own passages only: not another channel's, another visibility's or another tenant's", async () => {
    const place = newSlackPlace("SMV");
    const ns = recallNamespace(`t-${SUITE}`, { platform: "slack", tenant: place.team });
    await index.upsert(ns, [
      passage(place, `the release codename is kumquat-${place.id}`, "UALICE"),
      passage({ ...place, channel: `${place.channel}B` }, `the release codename is banana-${place.id}`, "UALICE"),
      passage(place, `the release codename is cherry-${place.id}`, "UALICE", { visibility: "private" }),
    ]);
    const otherTenant = { team: `${place.team}B`, channel: place.channel };
    await index.upsert(recallNamespace(`t-${SUITE}`, { platform: "slack", tenant: otherTenant.team }), [
      passage(otherTenant, `the release codename is date-${place.id}`, "UALICE"),
    ]);

    const answer = await say(place, "UBOB", "search memory for the release codename", 1);
    expect(answer).toContain(`kumquat-${place.id}`);
    for (const elsewhere of ["banana", "cherry", "date"]) expect(answer).not.toContain(`${elsewhere}-${place.id}`);
  });

  it("finds nothing of a person after they asked to be forgotten", async () => {
    const place = newSlackPlace("SMF");
    const ns = recallNamespace(`t-${SUITE}`, { platform: "slack", tenant: place.team });
    await index.upsert(ns, [
      passage(place, `my badge number is fig-${place.id}`, "UALICE"),
      passage(place, `my badge number is lime-${place.id}`, "UBOB"),
    ]);
    expect(await say(place, "UALICE", "forget me", 1)).toBe(FORGET_CONFIRMATION);
    const answer = await say(place, "UCAROL", "search memory for badge number", 2);
    expect(answer).toContain(`lime-${place.id}`);
    expect(answer).not.toContain(`fig-${place.id}`);
  });
});
