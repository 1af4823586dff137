import { describe, expect, it } from "vitest";
import {
  IngestRetries,
  MAX_INGEST_ATTEMPTS,
  type PendingIngest,
} from "../../lib/platforms/discord/gateway/ingest-retries.ts";
import type { Logger } from "../../lib/log.ts";

const NOW = 1_750_000_000_000;

/** The object's storage and alarm in memory, an ingest that fails `failures` times, a clock the test moves. */
function harness(failures: number) {
  const pending = new Map<string, PendingIngest>();
  const wakes: number[] = [];
  const events: string[] = [];
  const ingested: unknown[] = [];
  let now = NOW;
  let left = failures;
  const log: Logger = {
    info: (e) => void events.push(e),
    warn: (e) => void events.push(e),
    error: (e) => void events.push(e),
  };
  const retries = new IngestRetries({
    store: {
      all: async () => [...pending.values()],
      put: async (entry) => void pending.set(entry.id, entry),
      delete: async (id) => void pending.delete(id),
      wakeAt: async (at) => void wakes.push(at),
    },
    async ingest(event, data) {
      if (left-- > 0) throw new Error("QStash is down");
      ingested.push({ event, data });
    },
    log,
    now: () => now,
  });
  return { retries, pending, wakes, events, ingested, advanceTo: (at: number) => void (now = at) };
}

describe("IngestRetries", () => {
  it("ingests at once and keeps nothing when the ingest works", async () => {
    const h = harness(0);
    await h.retries.deliver({ id: "m1" }, "bot");
    expect(h.ingested).toEqual([{ event: "MESSAGE_CREATE", data: { id: "m1" } }]);
    expect(h.pending.size).toBe(0);
    expect(h.wakes).toEqual([]);
  });

  it("keeps a message whose ingest failed and ingests it when woken, with longer waits after each failure", async () => {
    const h = harness(3);
    await h.retries.deliver({ id: "m1" }, "bot");
    expect(h.pending.size).toBe(1);
    const delays: number[] = [];
    let lastTry = NOW;
    while (h.pending.size > 0) {
      const at = h.wakes.at(-1)!;
      delays.push(at - lastTry);
      lastTry = at;
      // Woken early, nothing is due yet.
      h.advanceTo(at - 1);
      await h.retries.retryDue();
      expect(h.ingested).toEqual([]);
      h.advanceTo(at);
      await h.retries.retryDue();
    }
    expect(h.ingested).toEqual([{ event: "MESSAGE_CREATE", data: { id: "m1" } }]);
    expect(delays).toEqual([2_000, 8_000, 32_000]);
    expect(h.events.filter((e) => e === "discord_ingest_retrying")).toHaveLength(3);
    expect(h.events).toContain("discord_ingest_retried");
  });

  it("hands a kept reaction back under its own dispatch, and an entry kept before dispatches were named as a message", async () => {
    const h = harness(1);
    await h.retries.deliver({ message_id: "q1" }, "bot", "MESSAGE_REACTION_ADD");
    h.pending.set("older", { id: "older", data: { id: "m0" }, botUserId: "bot", attempts: 1, nextAt: NOW });
    h.advanceTo(h.wakes.at(-1)! + 1);
    await h.retries.retryDue();
    expect(h.ingested).toEqual([
      { event: "MESSAGE_REACTION_ADD", data: { message_id: "q1" } },
      { event: "MESSAGE_CREATE", data: { id: "m0" } },
    ]);
    expect(h.pending.size).toBe(0);
  });

  it("gives a message up after the last try, and says so", async () => {
    const h = harness(Number.POSITIVE_INFINITY);
    await h.retries.deliver({ id: "m1" }, "bot");
    for (let i = 1; i < MAX_INGEST_ATTEMPTS; i++) {
      h.advanceTo(h.wakes.at(-1)!);
      await h.retries.retryDue();
    }
    expect(h.pending.size).toBe(0);
    expect(h.events.at(-1)).toBe("discord_ingest_lost");
  });
});
