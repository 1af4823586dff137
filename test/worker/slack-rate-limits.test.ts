/**
 * @module
 * Slack's rate limits at production timing (test/support/README.md): a 429 never costs an answer. A short
 * Retry-After is waited out in the job, spending none of QStash's three retries; a longer one goes back to QStash,
 * which comes back after it, and the answer goes out then, once.
 */
import { describe, expect, it, vi } from "vitest";
import { RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS } from "../../lib/platforms/rate-limited.ts";
import { ALL_RETRIES_MS, prodTimingSuite, QSTASH_RETRY_DELAYS_MS } from "../support/prod-timing.ts";
import { failSlackPosts, newSlackChannel, signedSlackRequest, slackMention, slackPosts } from "../support/slack.ts";
import { callWorker, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "slackrate";
const TEAM = "TSLACKRATE";
const REPLY_PATH = `/t/${SUITE}/jobs/reply`;
const kit = prodTimingSuite(SUITE);

pumpJobsDuringSuite(kit.env, SUITE);

async function mention(channel: string, text: string): Promise<void> {
  const event = slackMention({ team: TEAM, channel, user: "UALICE", text });
  expect((await callWorker(kit.env, await signedSlackRequest(event.body))).status).toBe(200);
}

/** The events of the lines logged while the spy listened. */
const eventsOf = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map(([line]) => (JSON.parse(String(line)) as { event?: string }).event);

describe("Slack answering 429 to an answer's post, at production timing", () => {
  it("with a short Retry-After twice in a row: posted once, at the first delivery, no retry spent", async () => {
    const warnings = vi.spyOn(console, "warn");
    const channel = newSlackChannel("CRL");
    await failSlackPosts({ channel, status: 429, retryAfter: 1, times: 2 });
    await mention(channel, "what is a monad?");
    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([{ path: REPLY_PATH, retried: 0, status: 200, outcome: "done" }]);
    expect(await slackPosts(channel)).toHaveLength(1);
    expect(eventsOf(warnings)).not.toContain("job_retry_later");
    expect((await kit.timePasses(ALL_RETRIES_MS)).deliveries).toEqual([]);
    expect(await slackPosts(channel)).toHaveLength(1);
  });

  it("with a longer Retry-After: back to QStash, which comes back after it, and posted then, once", async () => {
    const warnings = vi.spyOn(console, "warn");
    const channel = newSlackChannel("CRL");
    const retryAfterSeconds = RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS + 25;
    await failSlackPosts({ channel, status: 429, retryAfter: retryAfterSeconds });
    await mention(channel, "what is a functor?");
    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([{ path: REPLY_PATH, retried: 0, status: 503, outcome: "retry" }]);
    expect(await slackPosts(channel)).toHaveLength(0);
    expect(eventsOf(warnings)).toContain("job_retry_later");
    // Not at QStash's first retry (12 s): when Slack said, well before its next one (148 s).
    expect((await kit.timePasses(QSTASH_RETRY_DELAYS_MS[0])).deliveries).toEqual([]);
    expect((await kit.timePasses(retryAfterSeconds * 1000)).deliveries).toMatchObject([{ path: REPLY_PATH, retried: 1, status: 200, outcome: "done" }]);
    await kit.timePasses(ALL_RETRIES_MS);
    expect(await slackPosts(channel)).toHaveLength(1);
  });
});
