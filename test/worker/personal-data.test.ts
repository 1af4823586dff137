import { Redis } from "@upstash/redis/cloudflare";
import { beforeAll, describe, expect, it } from "vitest";
import { generateDiscordKeys, type DiscordSigningKeys } from "../../dev/signers/discord.ts";
import { askInteraction, signedInteractionRequest } from "../support/discord.ts";
import { scriptFault } from "../support/fault-control.ts";
import { prodSuiteEnv } from "../support/prod-timing.ts";
import { BOT_USER_ID, signedSlackRequest, slackMessageEvent } from "../support/slack.ts";
import {
  BOT_NUMBER,
  newMessageSid,
  newSender,
  signedSmsRequest,
  smsParams,
  smsSentTo,
  twilioSuiteEnv,
  TWILIO_SETTINGS,
} from "../support/twilio.ts";
import { workerClock } from "../support/worker-clock.ts";
import { callWorker, eventually, JOB_TAP_URL, pumpJobsDuringSuite } from "../support/worker.ts";
import { logLinesDuring, whatQStashHolds } from "../support/held-data.ts";

const SUITE = "personal";
/** A burst window long enough to read the job while QStash still holds it. */
const env = twilioSuiteEnv(SUITE, { SMS_BURST_WINDOW_SECONDS: "2", RATE_LIMIT_REPLIES: "1" });
/** The production rate window (RATE_LIMIT_WINDOW_SECONDS' default), on a clock the tests move. */
const RATE_WINDOW_MS = 60_000;
const clock = workerClock(env);
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
let discordKeys: DiscordSigningKeys;

pumpJobsDuringSuite(env, SUITE);
beforeAll(async () => {
  discordKeys = await generateDiscordKeys();
});

const digits = (number: string) => number.replace(/\D/g, "");

describe("phone numbers, names and tokens stay out of logs and queues", () => {
  it("leaves no phone number in the Worker's log lines of an SMS exchange, rate limit included", async () => {
    const from = newSender();
    // Both texts in one window of the rate limit, however long they take to be answered.
    clock.toNextWindow(RATE_WINDOW_MS);
    const lines = await logLinesDuring(async () => {
      for (const body of ["what's a good tea?", "and a good coffee?"]) {
        expect((await callWorker(env, await signedSmsRequest(env, smsParams({ from, body })))).status).toBe(200);
        await eventually(
          async () => (await smsSentTo(from)).length >= (body.startsWith("what") ? 1 : 2),
          15_000,
          "the answer",
        );
      }
      await eventually(async () => (await smsSentTo(from)).length === 2 && true, 15_000, "the notice");
    });
    const events = lines.map((line) => (JSON.parse(line) as { event: string }).event);
    for (const event of ["decision", "job_published", "job_ended", "reply_posted", "reply_rate_limited"])
      expect(events).toContain(event);
    for (const number of [from, BOT_NUMBER]) expect(lines.filter((line) => line.includes(digits(number)))).toEqual([]);
    // The same person keeps one pseudonym across lines, so the lines still line up.
    const authors = new Set(
      lines.flatMap((line) =>
        (JSON.parse(line) as { author?: string }).author ? [(JSON.parse(line) as { author: string }).author] : [],
      ),
    );
    expect([...authors]).toEqual([expect.stringMatching(/^p-[0-9a-f]{16}$/)]);
  });

  it("gives QStash an SMS job without the phone numbers, in its body, deduplication id and flow-control key", async () => {
    const from = newSender();
    const sid = newMessageSid();
    expect(
      (await callWorker(env, await signedSmsRequest(env, smsParams({ from, body: "hello there", sid })))).status,
    ).toBe(200);
    const held = await whatQStashHolds(redis);
    expect(held).toContain(sid);
    expect(held).not.toContain(digits(from));
    expect(held).not.toContain(digits(BOT_NUMBER));
    // Still answered: the job opens again in the Worker.
    await eventually(async () => (await smsSentTo(from)).length === 1, 15_000, "the answer");
  });

  it("gives QStash no display name of a Slack job and no Discord interaction token", async () => {
    // A suite of its own with nobody pumping it: this test takes the deliveries QStash makes, as they come.
    const unpumped = `${SUITE}held`;
    const heldEnv = {
      ...env,
      PUBLIC_BASE_URL: `${JOB_TAP_URL}/t/${unpumped}`,
      DISCORD_PUBLIC_KEY: discordKeys.publicKeyHex,
    };
    const id = Date.now().toString(36).toUpperCase();
    const { body } = slackMessageEvent({
      team: `TPD${id}`,
      channel: `CPD${id}`,
      user: "UALICE",
      text: `<@${BOT_USER_ID}> hi`,
    });
    const envelope = JSON.parse(body) as { event: Record<string, unknown> };
    envelope.event.user_profile = { display_name: `Alice Privatename${id}` };
    const interaction = askInteraction(
      { guildId: "330000000000000001", channelId: `43${String(Date.now()).slice(-12)}` },
      { id: "250000000000000001", name: "Bo" },
      "hi",
    );
    expect((await callWorker(heldEnv, await signedSlackRequest(JSON.stringify(envelope)))).status).toBe(200);
    expect(
      (await callWorker(heldEnv, await signedInteractionRequest(discordKeys, JSON.stringify(interaction)))).status,
    ).toBe(200);
    const delivered = [await takeDelivery(unpumped), await takeDelivery(unpumped)].join("\n");
    expect(delivered).toContain('"sealed":"v2.');
    expect(delivered).not.toContain(`Privatename${id}`);
    expect(delivered).not.toContain(interaction.token);
  });
});

/** The next delivery QStash makes for `suite`, answered 200 at once; its headers and body as text. */
async function takeDelivery(suite: string): Promise<string> {
  const res = await fetch(`${JOB_TAP_URL}/__next/${suite}?wait=10000`);
  expect(res.status).toBe(200);
  const delivery = (await res.json()) as { id: string; headers: Record<string, string>; body: string };
  await fetch(`${JOB_TAP_URL}/__respond/${delivery.id}`, {
    method: "POST",
    body: JSON.stringify({ status: 200, headers: {}, body: "{}" }),
  });
  return `${JSON.stringify(delivery.headers)} ${delivery.body}`;
}

describe("errors in log lines", () => {
  const FAULT_SUITE = "personalfault";
  const faultEnv = prodSuiteEnv(FAULT_SUITE, {
    ...TWILIO_SETTINGS,
  });

  it("logs a Redis HTTP error by its class, never the command with the message text and numbers", async () => {
    const from = newSender();
    const marker = `secret-text-${Date.now()}`;
    await scriptFault(`${String(faultEnv.UPSTASH_REDIS_REST_URL)}/__proxy`, {
      fault: "refuse",
      bodyContains: marker,
      status: 500,
      times: 5,
    });
    let status = 0;
    const lines = await logLinesDuring(async () => {
      status = (await callWorker(faultEnv, await signedSmsRequest(faultEnv, smsParams({ from, body: marker })))).status;
    });
    expect(status).toBe(503);
    const [line] = lines.filter((l) => l.includes('"event":"dependency_unavailable"'));
    expect(JSON.parse(line!)).toMatchObject({ dependency: "redis", error: expect.stringMatching(/^UpstashError/) });
    expect(lines.filter((l) => l.includes(marker) || l.includes(digits(from)))).toEqual([]);
  });
});
