/**
 * @module
 * Discord's rate limits at production timing (test/support/README.md): a 429 never costs an answer. A short
 * `retry_after` (a route bucket's, often under a second) is waited out in the job, spending none of QStash's three
 * retries; a longer one goes back to QStash, which comes back after it, and the answer goes out then, once.
 */
import { describe, expect, it, vi } from "vitest";
import { generateDiscordKeys } from "../../dev/signers/discord.ts";
import { RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS } from "../../lib/platforms/rate-limited.ts";
import { askInteraction, discordCalls, failDiscordCalls, snowflake } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { ALL_RETRIES_MS, prodTimingSuite, QSTASH_RETRY_DELAYS_MS } from "../support/prod-timing.ts";
import { pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "discordrate";
const REPLY_PATH = `/t/${SUITE}/jobs/reply`;
const keys = await generateDiscordKeys();
const kit = prodTimingSuite(SUITE, { DISCORD_PUBLIC_KEY: keys.publicKeyHex });
const api = String(kit.env.DISCORD_API_BASE_URL);

pumpJobsDuringSuite(kit.env, SUITE);

/** Alice asks in a new channel; resolves with the interaction's token, whose calls the fake records. */
async function ask(question: string, rateLimit: { retryAfter: number; times: number }): Promise<string> {
  const interaction = askInteraction({ guildId: snowflake(), channelId: snowflake() }, { id: snowflake(), name: "Alice" }, question);
  await failDiscordCalls(api, { route: "edit_original", token: interaction.token, status: 429, ...rateLimit });
  expect((await interactAsDiscord(kit.env, keys, interaction)).status).toBe(200);
  return interaction.token;
}

/** The events of the lines logged while the spy listened. */
const eventsOf = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map(([line]) => (JSON.parse(String(line)) as { event?: string }).event);

describe("Discord answering 429 to an interaction's answer, at production timing", () => {
  it("with a short retry_after twice in a row: answered once, at the first delivery, no retry spent", async () => {
    const warnings = vi.spyOn(console, "warn");
    const token = await ask("what is a monad?", { retryAfter: 0.4, times: 2 });
    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([{ path: REPLY_PATH, retried: 0, status: 200, outcome: "done" }]);
    expect(await discordCalls(api, { token })).toMatchObject([{ route: "edit_original" }]);
    expect(eventsOf(warnings)).not.toContain("job_retry_later");
    expect((await kit.timePasses(ALL_RETRIES_MS)).deliveries).toEqual([]);
    expect(await discordCalls(api, { token })).toHaveLength(1);
  });

  it("with a longer retry_after: back to QStash, which comes back after it, and answered then, once", async () => {
    const warnings = vi.spyOn(console, "warn");
    const retryAfterSeconds = RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS + 25;
    const token = await ask("what is a functor?", { retryAfter: retryAfterSeconds, times: 1 });
    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([{ path: REPLY_PATH, retried: 0, status: 503, outcome: "retry" }]);
    expect(await discordCalls(api, { token })).toEqual([]);
    expect(eventsOf(warnings)).toContain("job_retry_later");
    // Not at QStash's first retry (12 s): when Discord said, well before its next one (148 s).
    expect((await kit.timePasses(QSTASH_RETRY_DELAYS_MS[0])).deliveries).toEqual([]);
    expect((await kit.timePasses(retryAfterSeconds * 1000)).deliveries).toMatchObject([{ path: REPLY_PATH, retried: 1, status: 200, outcome: "done" }]);
    await kit.timePasses(ALL_RETRIES_MS);
    expect(await discordCalls(api, { token })).toMatchObject([{ route: "edit_original" }]);
  });
});
