/**
 * @module
 * Telegram at production timings (test/support/README.md): flood control never costs an answer. A short
 * `retry_after` is waited out in the job, spending none of QStash's retries; a longer one goes back to QStash, which
 * comes back after it and the part goes out then, once. And what Parley kept of a chat is gone BACKFILL_MINUTES
 * after its last message, so a conversation that starts later sees none of it.
 */
import { describe, expect, it } from "vitest";
import { RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS } from "../../lib/platforms/rate-limited.ts";
import { scriptFault } from "../support/fault-control.ts";
import { modelRequests } from "../support/model.ts";
import { ALL_RETRIES_MS, prodTimingSuite, QSTASH_RETRY_DELAYS_MS } from "../support/prod-timing.ts";
import {
  BOT,
  chatMessages,
  newChat,
  newPerson,
  say,
  TELEGRAM_FAKE_URL,
  TELEGRAM_SECRET,
  telegramRequest,
} from "../support/telegram.ts";
import { callWorker, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "tgtiming";
const REPLY_PATH = `/t/${SUITE}/jobs/reply`;
const BACKFILL_MINUTES = 30;
const kit = prodTimingSuite(SUITE, {
  TELEGRAM_BOT_TOKEN: BOT.token,
  TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
  TELEGRAM_BOT_USERNAME: BOT.username,
  BACKFILL_MINUTES: String(BACKFILL_MINUTES),
  BACKFILL_MESSAGES: "30",
});

pumpJobsDuringSuite(kit.env, SUITE);

async function post(update: Record<string, unknown> | undefined): Promise<void> {
  if (!update) throw new Error("the bot got no update for that");
  expect((await callWorker(kit.env, telegramRequest(update))).status).toBe(200);
}

describe("Telegram at production timings", () => {
  it("waits out a short flood wait in the job: answered at the first delivery, no retry spent", async () => {
    const fay = newPerson("Fay");
    const chat = await newChat({ privateWith: fay });
    await scriptFault(TELEGRAM_FAKE_URL, {
      fault: "ratelimit",
      retryAfter: 1,
      times: 2,
      path: "/sendMessage",
      bodyContains: `"chat_id":${chat}`,
    } as never);
    await post((await say(chat, fay, "what is a monad?")).update);
    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([
      { path: REPLY_PATH, retried: 0, status: 200, outcome: "done" },
    ]);
    expect(await chatMessages(chat)).toHaveLength(1);
    expect((await kit.timePasses(ALL_RETRIES_MS)).deliveries).toEqual([]);
  });

  it("sends a part that a longer flood wait held back when QStash comes back after it, once", async () => {
    const ivy = newPerson("Ivy");
    const chat = await newChat({ privateWith: ivy });
    const retryAfterSeconds = RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS + 25;
    await scriptFault(TELEGRAM_FAKE_URL, {
      fault: "ratelimit",
      retryAfter: retryAfterSeconds,
      path: "/sendMessage",
      bodyContains: `"chat_id":${chat}`,
    } as never);
    await post((await say(chat, ivy, "what is a functor?")).update);
    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([
      { path: REPLY_PATH, retried: 0, outcome: "retry" },
    ]);
    expect(await chatMessages(chat)).toHaveLength(0);
    // Not at QStash's first retry (12 s): when Telegram said, well before its next one (148 s).
    expect((await kit.timePasses(QSTASH_RETRY_DELAYS_MS[0])).deliveries).toEqual([]);
    expect((await kit.timePasses(retryAfterSeconds * 1000)).deliveries).toMatchObject([
      { path: REPLY_PATH, retried: 1, status: 200, outcome: "done" },
    ]);
    await kit.timePasses(ALL_RETRIES_MS);
    expect(await chatMessages(chat)).toHaveLength(1);
  });

  it("forgets the kept talk of a chat BACKFILL_MINUTES after its last message", async () => {
    const [gus, hal] = [newPerson("Gus"), newPerson("Hal")];
    const chat = await newChat({ group: { admin: true } });
    const marker = `old-talk-${chat}`;
    await post((await say(chat, gus, `the build is red again ${marker}`)).update);
    const { expiredKeys } = await kit.timePasses(BACKFILL_MINUTES * 60_000 + 1_000);
    expect(expiredKeys).toContain(`${kit.keyPrefix}kept:telegram|${BOT.id}:${chat}|${chat}`);
    const question = `@${BOT.username} anything new? ${chat}`;
    await post((await say(chat, hal, question)).update);
    await kit.deliveriesSettled();
    const [prompt] = await modelRequests(`anything new? ${chat}`);
    expect(JSON.stringify(prompt!.messages)).not.toContain(marker);
  });
});
