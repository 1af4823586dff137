import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it, vi } from "vitest";
import { DATA_BLOCK_OPEN } from "../../lib/context/data-block.ts";
import { FACTS_SYSTEM } from "../../lib/llm/memory-wording.ts";
import { FORGET_CONFIRMATION } from "../../lib/notices.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackPlace,
  signedSlackRequest,
  slackMessageEvent,
  slackPosts,
} from "../support/slack.ts";
import { callWorker, eventually, settle, pumpJobsDuringSuite, suiteEnv } from "../support/worker.ts";

const SUITE = "memfacts";
const PREFIX = `t-${SUITE}`;
const settings = { MEMORY_ENABLED: "true", SUMMARY_ENABLED: "true" };
const env = suiteEnv(SUITE, { ...settings, CONVERSATION_TIMEOUT_SECONDS: "60" });
/**
 * The test of a conversation that has expired has a suite of its own whose conversations time out after 2 s: with
 * that timeout for every test, an answer retried on a loaded machine could outlast its conversation.
 */
const EXPIRING_SUITE = "memexpire";
// Reading the channel when the new conversation starts would bring the first one's talk back (Slack still has it):
// off here, so that the fact is the only way the model knows it.
const expiringEnv = suiteEnv(EXPIRING_SUITE, {
  ...settings,
  CONVERSATION_TIMEOUT_SECONDS: "2",
  BACKFILL_MESSAGES: "0",
});
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });

pumpJobsDuringSuite(env, SUITE);
pumpJobsDuringSuite(expiringEnv, EXPIRING_SUITE);

async function mention(place: { team: string; channel: string }, user: string, text: string, to = env) {
  const event = slackMessageEvent({ ...place, user, text: `<@${BOT_USER_ID}> ${text}`, ts: distinctSlackTs() });
  const res = await callWorker(to, await signedSlackRequest(event.body));
  expect(res.status).toBe(200);
}

async function postCount(channel: string, count: number, what: string) {
  return eventually(
    async () => {
      const posts = await slackPosts(channel);
      return posts.length >= count && posts;
    },
    20_000,
    what,
  );
}

const factsKey = (team: string, user: string, prefix = PREFIX) => `${prefix}:facts:slack|${team}|${user}`;

/** Every key of the suite with everything stored under it, as text. */
async function dumpSuiteKeys(): Promise<{ key: string; content: string }[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, { match: `${PREFIX}:*`, count: 500 });
    keys.push(...batch);
    cursor = String(next);
  } while (cursor !== "0");
  const dumped = [];
  for (const key of keys) {
    const type = await redis.type(key);
    const value =
      type === "string"
        ? await redis.get(key)
        : type === "hash"
          ? await redis.hgetall(key)
          : type === "zset"
            ? await redis.zrange(key, 0, -1)
            : type === "list"
              ? await redis.lrange(key, 0, -1)
              : type;
    dumped.push({ key, content: JSON.stringify(value) });
  }
  return dumped;
}

describe("what the bot remembers about people", () => {
  it("answers in a new conversation with what a person said in one that has since expired", async () => {
    const place = newSlackPlace("MEM");
    const expiringPrefix = `t-${EXPIRING_SUITE}`;
    await mention(place, "URUNNER", `I'm training for a marathon in April. first-${place.id}`, expiringEnv);
    await postCount(place.channel, 1, "first answer");
    const facts = await eventually(
      async () => {
        const stored = await redis.get<unknown>(factsKey(place.team, "URUNNER", expiringPrefix));
        return stored !== null && JSON.stringify(stored);
      },
      15_000,
      "the fact to be stored",
    );
    expect(facts).toContain("training for a marathon in April");

    await eventually(
      async () => (await redis.keys(`${expiringPrefix}:conv:*${place.channel}*`)).length === 0,
      15_000,
      "the conversation to expire",
    );
    await mention(place, "URUNNER", `what should I eat the night before? second-${place.id}`, expiringEnv);
    await postCount(place.channel, 2, "answer in the new conversation");
    const [reply] = (await modelRequests(`second-${place.id}`)).filter((r) => r.messages[0]!.content !== FACTS_SYSTEM);
    const [data, ...turns] = reply!.messages.slice(1);
    expect(data!.content.startsWith(DATA_BLOCK_OPEN)).toBe(true);
    expect(data!.content).toContain("training for a marathon in April");
    // The first conversation itself is gone: the fact is the only way the model knows it.
    expect(JSON.stringify(turns)).not.toContain("marathon");
  });

  it("replaces a fact the person contradicts and does not store a repeated one twice", async () => {
    const place = newSlackPlace("MEM");
    await mention(place, "UMOVER", `I live in Paris. a-${place.id}`);
    await postCount(place.channel, 1, "first answer");
    await eventually(
      async () => JSON.stringify(await redis.get(factsKey(place.team, "UMOVER"))).includes("Paris"),
      15_000,
      "Paris",
    );
    await mention(place, "UMOVER", `I live in Berlin now. b-${place.id}`);
    await postCount(place.channel, 2, "second answer");
    await eventually(
      async () => JSON.stringify(await redis.get(factsKey(place.team, "UMOVER"))).includes("Berlin"),
      15_000,
      "Berlin",
    );
    await mention(place, "UMOVER", `I live in Berlin now. c-${place.id}`);
    await postCount(place.channel, 3, "third answer");
    await eventually(async () => (await modelRequests(`c-${place.id}`)).length === 2, 15_000, "the third extraction");
    await settle(300);
    const stored = (await redis.get<{ t: string }[]>(factsKey(place.team, "UMOVER")))!.map((f) => f.t);
    expect(stored).toEqual(["UMOVER lives in Berlin now"]);
  });

  it("forgets everything about a person who says 'forget me', and confirms", async () => {
    const place = newSlackPlace("MEM");
    const user = `UFORGET${place.id}`;
    await mention(place, user, `I'm allergic to hazelnuts. secret-${place.id}`);
    await postCount(place.channel, 1, "first answer");
    await eventually(
      async () => (await redis.get(factsKey(place.team, user))) !== null,
      15_000,
      "the fact to be stored",
    );

    await mention(place, user, "forget me");
    const posts = await postCount(place.channel, 2, "confirmation");
    expect(posts[1]!.text).toBe(FORGET_CONFIRMATION);
    await settle(500);

    // The reply rate limit's counter (a number, gone after its window) is kept on purpose: forgetting must not
    // reset a limit; the forget mark holds only when they asked. Everything else that names the person or repeats
    // what they said must be gone (other conversations: test/worker/forget-me.test.ts).
    const keys = await dumpSuiteKeys();
    const mark = keys.find(({ key }) => key === `${PREFIX}:forgotten:slack|${place.team}|${user}`);
    expect(mark?.content).toMatch(/^"?\d+"?$/);
    const about = keys.filter(
      ({ key, content }) =>
        !key.startsWith(`${PREFIX}:limit:`) &&
        key !== mark?.key &&
        (`${key} ${content}`.includes(user) || content.includes("hazelnuts") || content.includes(`secret-${place.id}`)),
    );
    expect(about).toEqual([]);
  });

  it("drops extraction output that fails validation, logs it, and still answers", async () => {
    const place = newSlackPlace("MEM");
    const marker = `badjson-${place.id}`;
    const warnings = vi.spyOn(console, "warn");
    // The reply comes first and takes the first rule; the extraction request gets the invalid JSON.
    await scriptModel(
      { match: marker, reply: "Noted, good luck with the move!", times: 1 },
      { match: marker, reply: '{"facts": "Lisbon"}', times: 1 },
    );
    await mention(place, "UINVALID", `I'm moving to Lisbon. ${marker}`);
    const posts = await postCount(place.channel, 1, "the answer");
    expect(posts[0]!.text).toBe("Noted, good luck with the move!");
    await eventually(
      async () => warnings.mock.calls.some((c) => String(c[0]).includes('"event":"facts_output_invalid"')),
      15_000,
      "the invalid output to be logged",
    );
    expect(await redis.get(factsKey(place.team, "UINVALID"))).toBeNull();
    const logged = warnings.mock.calls.map((c) => String(c[0])).find((l) => l.includes("facts_output_invalid"))!;
    expect(logged).not.toContain("Lisbon");
    warnings.mockRestore();

    await mention(place, "UINVALID", `and what should I pack? after-${place.id}`);
    await postCount(place.channel, 2, "the next answer");
  });
});
