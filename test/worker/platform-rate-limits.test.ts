/**
 * @module
 * A platform's 429 on an answer at production timing (test/support/README.md) never costs the answer. A short
 * Retry-After (Discord: `retry_after`, a route bucket's, often under a second) is waited out in the job, spending
 * none of QStash's three retries; a longer one goes back to QStash, which comes back after it, and the answer goes
 * out then, once. Telegram's flood waits: test/worker/telegram-timing.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { generateDiscordKeys } from "../../dev/signers/discord.ts";
import { RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS } from "../../lib/platforms/rate-limited.ts";
import { askInteraction, discordCalls, failDiscordCalls, snowflake } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { ALL_RETRIES_MS, prodTimingSuite, QSTASH_RETRY_DELAYS_MS } from "../support/prod-timing.ts";
import { failSlackPosts, newSlackChannel, signedSlackRequest, slackMention, slackPosts } from "../support/slack.ts";
import { failSmsTo, newSender, signedSmsRequest, smsParams, smsSentTo, TWILIO_SETTINGS } from "../support/twilio.ts";
import { callWorker, pumpJobsDuringSuite } from "../support/worker.ts";

/** Longer than the job waits out: QStash's to wait. */
const LONG_RETRY_AFTER_SECONDS = RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS + 25;

/** The events of the lines logged while the spy listened. */
const eventsOf = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map(([line]) => (JSON.parse(String(line)) as { event?: string }).event);

const SLACK_SUITE = "slackrate";
const TEAM = "TSLACKRATE";
const SLACK_REPLY_PATH = `/t/${SLACK_SUITE}/jobs/reply`;
const slackKit = prodTimingSuite(SLACK_SUITE);

pumpJobsDuringSuite(slackKit.env, SLACK_SUITE);

async function mention(channel: string, text: string): Promise<void> {
  const event = slackMention({ team: TEAM, channel, user: "UALICE", text });
  expect((await callWorker(slackKit.env, await signedSlackRequest(event.body))).status).toBe(200);
}

describe("Slack answering 429 to an answer's post, at production timing", () => {
  it("with a short Retry-After twice in a row: posted once, at the first delivery, no retry spent", async () => {
    const warnings = vi.spyOn(console, "warn");
    const channel = newSlackChannel("CRL");
    await failSlackPosts({ channel, status: 429, retryAfter: 1, times: 2 });
    await mention(channel, "what is a monad?");
    expect((await slackKit.deliveriesSettled()).deliveries).toMatchObject([
      { path: SLACK_REPLY_PATH, retried: 0, status: 200, outcome: "done" },
    ]);
    expect(await slackPosts(channel)).toHaveLength(1);
    expect(eventsOf(warnings)).not.toContain("job_retry_later");
    expect((await slackKit.timePasses(ALL_RETRIES_MS)).deliveries).toEqual([]);
    expect(await slackPosts(channel)).toHaveLength(1);
  });

  it("with a longer Retry-After: back to QStash, which comes back after it, and posted then, once", async () => {
    const warnings = vi.spyOn(console, "warn");
    const channel = newSlackChannel("CRL");
    const retryAfterSeconds = LONG_RETRY_AFTER_SECONDS;
    await failSlackPosts({ channel, status: 429, retryAfter: retryAfterSeconds });
    await mention(channel, "what is a functor?");
    expect((await slackKit.deliveriesSettled()).deliveries).toMatchObject([
      { path: SLACK_REPLY_PATH, retried: 0, status: 503, outcome: "retry" },
    ]);
    expect(await slackPosts(channel)).toHaveLength(0);
    expect(eventsOf(warnings)).toContain("job_retry_later");
    // Not at QStash's first retry (12 s): when Slack said, well before its next one (148 s).
    expect((await slackKit.timePasses(QSTASH_RETRY_DELAYS_MS[0])).deliveries).toEqual([]);
    expect((await slackKit.timePasses(retryAfterSeconds * 1000)).deliveries).toMatchObject([
      { path: SLACK_REPLY_PATH, retried: 1, status: 200, outcome: "done" },
    ]);
    await slackKit.timePasses(ALL_RETRIES_MS);
    expect(await slackPosts(channel)).toHaveLength(1);
  });
});

const DISCORD_SUITE = "discordrate";
const DISCORD_REPLY_PATH = `/t/${DISCORD_SUITE}/jobs/reply`;
const discordKeys = await generateDiscordKeys();
const discordKit = prodTimingSuite(DISCORD_SUITE, { DISCORD_PUBLIC_KEY: discordKeys.publicKeyHex });
const discordApi = String(discordKit.env.DISCORD_API_BASE_URL);

pumpJobsDuringSuite(discordKit.env, DISCORD_SUITE);

/** Alice asks in a new channel; resolves with the interaction's token, whose calls the fake records. */
async function ask(question: string, rateLimit: { retryAfter: number; times: number }): Promise<string> {
  const interaction = askInteraction(
    { guildId: snowflake(), channelId: snowflake() },
    { id: snowflake(), name: "Alice" },
    question,
  );
  await failDiscordCalls(discordApi, { route: "edit_original", token: interaction.token, status: 429, ...rateLimit });
  expect((await interactAsDiscord(discordKit.env, discordKeys, interaction)).status).toBe(200);
  return interaction.token;
}

describe("Discord answering 429 to an interaction's answer, at production timing", () => {
  it("with a short retry_after twice in a row: answered once, at the first delivery, no retry spent", async () => {
    const warnings = vi.spyOn(console, "warn");
    const token = await ask("what is a monad?", { retryAfter: 0.4, times: 2 });
    expect((await discordKit.deliveriesSettled()).deliveries).toMatchObject([
      { path: DISCORD_REPLY_PATH, retried: 0, status: 200, outcome: "done" },
    ]);
    expect(await discordCalls(discordApi, { token })).toMatchObject([{ route: "edit_original" }]);
    expect(eventsOf(warnings)).not.toContain("job_retry_later");
    expect((await discordKit.timePasses(ALL_RETRIES_MS)).deliveries).toEqual([]);
    expect(await discordCalls(discordApi, { token })).toHaveLength(1);
  });

  it("with a longer retry_after: back to QStash, which comes back after it, and answered then, once", async () => {
    const warnings = vi.spyOn(console, "warn");
    const retryAfterSeconds = LONG_RETRY_AFTER_SECONDS;
    const token = await ask("what is a functor?", { retryAfter: retryAfterSeconds, times: 1 });
    expect((await discordKit.deliveriesSettled()).deliveries).toMatchObject([
      { path: DISCORD_REPLY_PATH, retried: 0, status: 503, outcome: "retry" },
    ]);
    expect(await discordCalls(discordApi, { token })).toEqual([]);
    expect(eventsOf(warnings)).toContain("job_retry_later");
    // Not at QStash's first retry (12 s): when Discord said, well before its next one (148 s).
    expect((await discordKit.timePasses(QSTASH_RETRY_DELAYS_MS[0])).deliveries).toEqual([]);
    expect((await discordKit.timePasses(retryAfterSeconds * 1000)).deliveries).toMatchObject([
      { path: DISCORD_REPLY_PATH, retried: 1, status: 200, outcome: "done" },
    ]);
    await discordKit.timePasses(ALL_RETRIES_MS);
    expect(await discordCalls(discordApi, { token })).toMatchObject([{ route: "edit_original" }]);
  });
});

const TWILIO_SUITE = "twiliorate";
const TWILIO_REPLY_PATH = `/t/${TWILIO_SUITE}/jobs/reply`;
/** SMS_BURST_WINDOW_SECONDS's default: a text's job is delivered this long after it. */
const BURST_WINDOW_MS = 4_000;
const twilioKit = prodTimingSuite(TWILIO_SUITE, {
  ...TWILIO_SETTINGS,
});

pumpJobsDuringSuite(twilioKit.env, TWILIO_SUITE);

async function text(from: string, body: string): Promise<void> {
  const res = await callWorker(twilioKit.env, await signedSmsRequest(twilioKit.env, smsParams({ from, body })));
  expect(res.status).toBe(200);
  await res.body?.cancel();
}

describe("Twilio answering 429 to an answer's send, at production timing", () => {
  it("with a short Retry-After twice in a row: sent once, at the first delivery, no retry spent", async () => {
    const from = newSender();
    await failSmsTo(from, { status: 429, retryAfter: 1, times: 2 });
    await text(from, "what is a monad?");
    expect((await twilioKit.timePasses(BURST_WINDOW_MS)).deliveries).toMatchObject([
      { path: TWILIO_REPLY_PATH, retried: 0, status: 200, outcome: "done" },
    ]);
    expect(await smsSentTo(from)).toHaveLength(1);
    expect((await twilioKit.timePasses(ALL_RETRIES_MS)).deliveries).toEqual([]);
    expect(await smsSentTo(from)).toHaveLength(1);
  });

  it("with a longer Retry-After: back to QStash, which comes back after it, and sent then, once", async () => {
    const from = newSender();
    const retryAfterSeconds = LONG_RETRY_AFTER_SECONDS;
    await failSmsTo(from, { status: 429, retryAfter: retryAfterSeconds });
    await text(from, "what is a functor?");
    expect((await twilioKit.timePasses(BURST_WINDOW_MS)).deliveries).toMatchObject([
      { path: TWILIO_REPLY_PATH, retried: 0, status: 503, outcome: "retry" },
    ]);
    expect(await smsSentTo(from)).toHaveLength(0);
    expect((await twilioKit.timePasses(QSTASH_RETRY_DELAYS_MS[0])).deliveries).toEqual([]);
    expect((await twilioKit.timePasses(retryAfterSeconds * 1000)).deliveries).toMatchObject([
      { path: TWILIO_REPLY_PATH, retried: 1, status: 200, outcome: "done" },
    ]);
    await twilioKit.timePasses(ALL_RETRIES_MS);
    expect(await smsSentTo(from)).toHaveLength(1);
  });
});
