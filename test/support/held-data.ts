/**
 * @module
 * What the local stack holds after a test, for tests that check something never reaches it: the Worker's log lines
 * while a test ran, and everything the QStash stand-in keeps (its messages with their bodies decoded).
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { vi } from "vitest";
import { base64ToText } from "../../lib/base64.ts";

/** The prefix under which the tests' QStash stand-in keeps messages (test/support/global-setup.ts). */
const QSTASH_PREFIX = "qstash-test:";

/** Every line the Worker logged while `run` ran. */
export async function logLinesDuring(run: () => Promise<void>): Promise<string[]> {
  const spies = (["log", "warn", "error"] as const).map((level) => vi.spyOn(console, level));
  try {
    await run();
    return spies.flatMap((spy) => spy.mock.calls.map((call) => String(call[0])));
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/** What the QStash stand-in holds: each stored message with its body decoded, the deduplication keys, the gates. */
export async function whatQStashHolds(redis: Redis): Promise<string> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, { match: `${QSTASH_PREFIX}*`, count: 1_000 });
    keys.push(...batch);
    cursor = String(next);
  } while (cursor !== "0");
  const held = await Promise.all(
    keys.map(async (key) => {
      const type = await redis.type(key);
      if (type === "hash") return `${key} ${JSON.stringify(await redis.hgetall(key))}`;
      if (type === "zset") return `${key} ${JSON.stringify(await redis.zrange(key, 0, -1))}`;
      if (type !== "string") return key;
      const value = await redis.get<unknown>(key);
      const body = (value as { bodyBase64?: string } | null)?.bodyBase64;
      return `${key} ${JSON.stringify(value)} ${body ? (base64ToText(body) ?? body) : ""}`;
    }),
  );
  return held.join("\n");
}
