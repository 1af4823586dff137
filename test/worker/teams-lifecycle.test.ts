/**
 * @module
 * The bot taken out of a Teams conversation (issue #39) on the local stack: Teams sends a `conversationUpdate` with
 * the bot in `membersRemoved` and an `installationUpdate` `remove`; both are acknowledged, and what Parley kept of that
 * chat or channel (its kept messages, conversations, settings) is deleted, while another chat of the same Microsoft
 * tenant keeps its own. The bot added is acknowledged and says nothing.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { describe, expect, it } from "vitest";
import fixtures from "../fixtures/platforms/teams/activities.json" with { type: "json" };
import { botMessages, deliver, newConversation, newPerson, removeBot, say, teamsSuiteEnv } from "../support/teams.ts";
import { eventually, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "teamslife";
const env = teamsSuiteEnv(SUITE, { BACKFILL_MESSAGES: "30" });
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
const prefix = `t-${SUITE}`;

pumpJobsDuringSuite(env, SUITE);

/**
 * What Parley holds of one chat or channel (its id is unique to it: no other chat's keys contain it), but for the
 * marks that name a message by id alone (seen, answered, claimed), which hold no text and expire on their own.
 */
const MARKS = /:(seen|reply|claim):/;
const chatKeys = async (chat: string) =>
  (await redis.keys(`${prefix}:*`)).filter((key) => key.includes(`|${chat}`) && !MARKS.test(key));

const answered = (chat: string) =>
  eventually(async () => (await botMessages(chat)).length === 1, 20_000, `the question in ${chat} answered`);

describe("the bot removed from a Teams conversation", () => {
  it("deletes what was kept of that channel or chat, and another chat of the tenant keeps its own", async () => {
    const alice = newPerson("Alice");
    const [channel, dm, stays] = [
      await newConversation("channel"),
      await newConversation("personal"),
      await newConversation("groupChat"),
    ];
    for (const chat of [channel, dm, stays]) {
      const asked = await say(chat, alice, "what is a monad?", { mention: true });
      expect((await deliver(env, asked.delivery)).status).toBe(200);
      await answered(chat);
      expect((await chatKeys(chat)).length).toBeGreaterThan(0);
    }
    for (const chat of [channel, dm]) {
      const deliveries = await removeBot(chat, alice);
      expect(deliveries.map((d) => d.body.type)).toEqual(["conversationUpdate", "installationUpdate"]);
      for (const delivery of deliveries) expect((await deliver(env, delivery)).status).toBe(200);
    }
    const left = async () => [...(await chatKeys(channel)), ...(await chatKeys(dm))];
    await eventually(async () => (await left()).length === 0, 20_000, "the removed chats' keys gone").catch(
      async (err) => {
        throw new Error(`${err}: ${JSON.stringify(await left())}`);
      },
    );
    expect((await chatKeys(stays)).length).toBeGreaterThan(0);
  });

  it("acknowledges the bot added to a team and says nothing", async () => {
    const channel = await newConversation("channel");
    const added = await say(channel, newPerson("Bob"), "hello", { mention: true });
    // The published activity of the bot added, in a conversation of the fake's, signed as the fake signs.
    const body = { ...fixtures.events.botAddedToTeam.body, serviceUrl: added.delivery!.body.serviceUrl };
    const res = await deliver(env, { body, authorization: added.delivery!.authorization });
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await botMessages(channel)).toEqual([]);
  });
});
