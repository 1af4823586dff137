import { Redis } from "@upstash/redis/cloudflare";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { discordSignature, generateDiscordKeys, type DiscordSigningKeys } from "../../dev/signers/discord.ts";
import { discordFakeOrigin, sendAsDiscord } from "../../dev/fakes/discord/interaction-answers.ts";
import {
  APPLICATION_ID,
  askAboutInteraction,
  askInteraction,
  discordCalls,
  pingInteraction,
  signedInteractionRequest,
} from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import {
  callWorker,
  eventually,
  settle,
  startJobPump,
  suiteEnv,
  type JobPump,
  type TestEnv,
} from "../support/worker.ts";

const SUITE = "discordint";
/** Discord invalidates the interaction when the first answer takes longer. */
const DISCORD_INITIAL_RESPONSE_MS = 3_000;
let keys: DiscordSigningKeys;
let env: TestEnv;
let redis: Redis;
let pump: JobPump;
let seq = 0;

beforeAll(async () => {
  keys = await generateDiscordKeys();
  env = suiteEnv(SUITE, { DISCORD_PUBLIC_KEY: keys.publicKeyHex });
  redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
  pump = startJobPump(env, SUITE);
});
afterAll(async () => {
  await pump.stop();
});

const apiUrl = () => String(env.DISCORD_API_BASE_URL);
const alice = { id: "210000000000000001", name: "Alice" };
function newPlace() {
  seq += 1;
  return {
    guildId: "310000000000000001",
    channelId: `41${String(Date.now()).slice(-10)}${String(seq).padStart(4, "0")}`,
  };
}

async function interact(body: object, testEnv = env): Promise<{ status: number; json: unknown; ms: number }> {
  const started = Date.now();
  const res = await interactAsDiscord(testEnv, keys, body);
  const ms = Date.now() - started;
  return { status: res.status, json: await res.json(), ms };
}
const fakeControl = async (path: string, body: unknown) => {
  const res = await fetch(`${discordFakeOrigin(apiUrl())}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`the Discord fake's ${path} answered ${res.status}`);
};

const edits = async (token: string) => discordCalls(apiUrl(), { token });

describe("Discord interactions", () => {
  it("answers PING with PONG", async () => {
    const res = await interact(pingInteraction());
    expect(res).toMatchObject({ status: 200, json: { type: 1 } });
  });

  it("defers /ask at once, then edits the deferred message with the model's answer", async () => {
    const place = newPlace();
    const marker = `ask-${place.channelId}`;
    await scriptModel({ match: marker, reply: "Lima is the capital of Peru." });
    const interaction = askInteraction(place, alice, `what is the capital of Peru? ${marker}`);
    const res = await interact(interaction);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ type: 5 });
    expect(res.ms).toBeLessThan(DISCORD_INITIAL_RESPONSE_MS);
    const calls = await eventually(
      async () => (await edits(interaction.token)).length > 0 && edits(interaction.token),
      15_000,
      "the edit",
    );
    expect(calls).toEqual([
      expect.objectContaining({
        route: "edit_original",
        applicationId: APPLICATION_ID,
        content: "Lima is the capital of Peru.",
        allowed_mentions: { parse: [] },
      }),
    ]);
  });

  it("sends a 4,500-character answer as the edit and two follow-ups", async () => {
    const place = newPlace();
    const marker = `long-${place.channelId}`;
    const answer = Array.from({ length: 3 }, (_, i) =>
      `Section ${i + 1}. ${"All work and no play. ".repeat(67)}`.trim(),
    ).join("\n\n");
    expect(answer.length).toBeGreaterThanOrEqual(4_400);
    await scriptModel({ match: marker, reply: answer });
    const interaction = askInteraction(place, alice, `tell me everything ${marker}`);
    expect((await interact(interaction)).json).toEqual({ type: 5 });
    const calls = await eventually(
      async () => {
        const c = await edits(interaction.token);
        return c.length >= 3 && c;
      },
      15_000,
      "three messages",
    );
    await settle(500);
    expect((await edits(interaction.token)).map((c) => c.route)).toEqual(["edit_original", "followup", "followup"]);
    expect(calls.every((c) => (c.content as string).length <= 2_000)).toBe(true);
  });

  it("puts the target message of 'Ask Parley about this' into the question the model sees", async () => {
    const place = newPlace();
    const marker = `about-${place.channelId}`;
    const interaction = askAboutInteraction(place, alice, {
      author: { id: "220000000000000001", name: "Bob" },
      content: `Tabs beat spaces ${marker}`,
    });
    expect((await interact(interaction)).json).toEqual({ type: 5 });
    await eventually(async () => (await edits(interaction.token)).length === 1, 15_000, "the answer");
    const [request] = await modelRequests(marker);
    const prompt = JSON.stringify(request!.messages);
    expect(prompt).toContain("Bob");
    expect(prompt).toContain(`Tabs beat spaces ${marker}`);
  });

  it("edits once when the job is quicker than Discord's receipt of the deferral: the early 10015 is tried again", async () => {
    const place = newPlace();
    const marker = `early-${place.channelId}`;
    await scriptModel({ match: marker, reply: "Here at last." });
    const interaction = askInteraction(place, alice, `quick one ${marker}`);
    const body = JSON.stringify(interaction);
    // Discord takes the Worker's answer 1.5 s late (still within its 3 s): the job's first edit comes before it.
    const res = await sendAsDiscord(discordFakeOrigin(apiUrl()), body, async () => {
      const answer = await callWorker(env, await signedInteractionRequest(keys, body));
      await eventually(async () => (await modelRequests(marker)).length > 0, 10_000, "the job's model call");
      await settle(1_500);
      return answer;
    });
    expect(await res.json()).toEqual({ type: 5 });
    const calls = await eventually(
      async () => (await edits(interaction.token)).length === 1 && edits(interaction.token),
      20_000,
      "the edit",
    );
    expect(calls[0]).toMatchObject({ route: "edit_original", content: "Here at last." });
  });

  it("gives up quietly, without retries, on an answer ready after the interaction token's 15 minutes", async () => {
    const place = newPlace();
    const marker = `late-${place.channelId}`;
    const warnings = vi.spyOn(console, "warn");
    await scriptModel({ match: marker, reply: "Too late now.", delayMs: 2_000 });
    const interaction = askInteraction(place, alice, `take your time ${marker}`);
    expect((await interact(interaction)).json).toEqual({ type: 5 });
    const answersBefore = pump.answers.length;
    await fakeControl("/__interactions/age", { token: interaction.token, ms: 15 * 60 * 1000 });
    const expired = () =>
      warnings.mock.calls.filter((c) => String(c[0]).includes('"event":"discord_interaction_expired"'));
    await eventually(async () => expired().length > 0, 20_000, "the expired token noticed");
    await settle(1_500);
    expect(await edits(interaction.token)).toEqual([]);
    expect(pump.answers.slice(answersBefore).every((status) => status === 200)).toBe(true);
    warnings.mockRestore();
  });

  it("turns the deferred message into an apology when the model fails on every try", async () => {
    const place = newPlace();
    const marker = `broken-${place.channelId}`;
    const errors = vi.spyOn(console, "error");
    await scriptModel({ match: marker, status: 500, times: 100 });
    const interaction = askInteraction(place, alice, `are you there? ${marker}`);
    expect((await interact(interaction)).json).toEqual({ type: 5 });
    const calls = await eventually(
      async () => (await edits(interaction.token)).length === 1 && edits(interaction.token),
      30_000,
      "apology",
    );
    expect(calls[0]).toMatchObject({ route: "edit_original" });
    expect(calls[0]!.content).toMatch(/couldn't answer/);
    expect(errors.mock.calls.some((c) => String(c[0]).includes('"event":"job_failed"'))).toBe(true);
    errors.mockRestore();
  });
});

describe("Discord requests that must change nothing", () => {
  // A suite of its own: a late delivery of an earlier test (a failure callback) must not count as a job of these.
  const QUIET_SUITE = "discordquiet";
  let quietEnv: TestEnv;
  let quietPump: JobPump;
  beforeAll(() => {
    quietEnv = suiteEnv(QUIET_SUITE, { DISCORD_PUBLIC_KEY: keys.publicKeyHex });
    quietPump = startJobPump(quietEnv, QUIET_SUITE);
  });
  afterAll(async () => {
    await quietPump.stop();
  });

  it.each([
    [
      "a correctly signed request more than 5 minutes old (a replay)",
      async (body: string) =>
        signedInteractionRequest(keys, body, { timestamp: String(Math.floor(Date.now() / 1000) - 301) }),
    ],
    [
      "a correctly signed request more than 5 minutes ahead",
      async (body: string) =>
        signedInteractionRequest(keys, body, { timestamp: String(Math.floor(Date.now() / 1000) + 301) }),
    ],
    [
      "a signature from another key",
      async (body: string) => signedInteractionRequest(await generateDiscordKeys(), body),
    ],
    [
      "a signature over another timestamp",
      async (body: string) =>
        signedInteractionRequest(keys, body, {
          signature: await discordSignature(keys.privateKey, "1", body),
          timestamp: "2",
        }),
    ],
    [
      "no signature headers",
      async (body: string) => new Request("https://bot.test/discord/interactions", { method: "POST", body }),
    ],
  ])("%s gets 401 and nothing is written", async (_name, build) => {
    const place = newPlace();
    const interaction = askInteraction(place, alice, "sneaky");
    const res = await callWorker(quietEnv, await build(JSON.stringify(interaction)));
    expect(res.status).toBe(401);
    await settle(300);
    expect(await redis.keys(`t-${QUIET_SUITE}:*`)).toEqual([]);
    expect(await edits(interaction.token)).toEqual([]);
    expect(quietPump.answers).toEqual([]);
  });
});

describe("a job that QStash delivers twice", () => {
  const SUITE2 = "discordtwice";
  let env2: TestEnv;
  let pump2: JobPump;
  beforeAll(() => {
    env2 = suiteEnv(SUITE2, { DISCORD_PUBLIC_KEY: keys.publicKeyHex });
    pump2 = startJobPump(env2, SUITE2, { deliverEach: 2 });
  });
  afterAll(async () => {
    await pump2.stop();
  });

  it("edits @original exactly once", async () => {
    const place = newPlace();
    const marker = `twice-${place.channelId}`;
    await scriptModel({ match: marker, reply: "Exactly one answer." });
    const interaction = askInteraction(place, alice, `answer me once ${marker}`);
    expect((await interact(interaction, env2)).json).toEqual({ type: 5 });
    await eventually(async () => (await edits(interaction.token)).length >= 1, 15_000, "the edit");
    await eventually(async () => pump2.answers.length >= 2, 15_000, "both deliveries");
    await settle(1_000);
    expect(await edits(interaction.token)).toEqual([
      expect.objectContaining({ route: "edit_original", content: "Exactly one answer." }),
    ]);
  });
});
