/**
 * @module
 * Recall's Vector client against the local Upstash Vector stand-in, through the real `@upstash/vector`: what one
 * place may recall (never another channel's, a DM's elsewhere, or another tenant's), forgetting a person,
 * retention in bounded batches, an uninstall, one request per answer, and a failing Vector never failing an answer.
 */
import { randomUUID } from "node:crypto";
import { Index } from "@upstash/vector";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../../dev/ports.ts";
import { startVectorStandIn, type RunningVectorStandIn } from "../../dev/upstash-vector/server.ts";
import type { ConversationKey, StoredMessage } from "../../lib/message.ts";
import { conversationPassages } from "../../lib/memory/recall/build-passages.ts";
import { RecallIndex } from "../../lib/memory/recall/client.ts";
import { forgetFilter, recallFilter } from "../../lib/memory/recall/filters.ts";
import { recallNamespace } from "../../lib/memory/recall/namespace.ts";
import type { Visibility } from "../../lib/memory/recall/passage.ts";
import { recallForAnswer } from "../../lib/memory/recall/recall.ts";
import { recallEntry } from "../../lib/memory/recall/format.ts";
import { retentionCutoff, sweepExpiredPassages } from "../../lib/memory/recall/retention.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 20, 12, 0);
const BOT = { userId: "UBOT", name: "Parley" };
const PREFIX = "parley";

let server: RunningVectorStandIn;
let index: RecallIndex;
const requests: string[] = [];

function remember(
  key: ConversationKey,
  visibility: Visibility,
  conversationId: string,
  lines: [string, string][],
  at = NOW - 3 * DAY,
) {
  const messages: StoredMessage[] = lines.map(([authorId, text], i) => ({
    id: `${conversationId}-${i}`,
    role: "user",
    authorId,
    authorName: authorId,
    text,
    ts: at + i * 1_000,
  }));
  const source = { key, visibility, conversationId, bot: BOT, forgotten: new Set<string>() };
  return index.upsert(recallNamespace(PREFIX, key), conversationPassages(source, messages));
}

async function recalled(
  key: ConversationKey,
  visibility: Visibility,
  question: string,
  prefix = PREFIX,
): Promise<string[]> {
  const { hits } = await index.search(recallNamespace(prefix, key), {
    text: question,
    filter: recallFilter(key, visibility),
    topK: 10,
  });
  return hits.map((h) => h.text);
}

const T1_PUBLIC: ConversationKey = { platform: "slack", tenant: "T1", channel: "C1" };
const T1_OTHER: ConversationKey = { platform: "slack", tenant: "T1", channel: "C2" };
const T1_PRIVATE: ConversationKey = { platform: "slack", tenant: "T1", channel: "G1" };
const T1_DM: ConversationKey = { platform: "slack", tenant: "T1", channel: "D1" };
const T2_PUBLIC: ConversationKey = { platform: "slack", tenant: "T2", channel: "C1" };

beforeAll(async () => {
  server = await startVectorStandIn({
    port: await freePort(),
    redisUrl: inject("redisUrl"),
    keyPrefix: `recall-client-${randomUUID()}:`,
    onRequest: (command) => requests.push(command),
  });
  index = new RecallIndex({ url: server.url, token: server.token });
  await remember(T1_PUBLIC, "public", "c-pub", [["UANA", "we decided the release ships on Friday after QA"]]);
  await remember(T1_OTHER, "public", "c-other", [["UBOB", "release party is on Friday in the kitchen"]]);
  await remember(T1_PRIVATE, "private", "c-priv", [["UCYD", "the release is secretly delayed to Monday"]]);
  await remember(T1_DM, "dm", "c-dm", [["UANA", "my release checklist lives in my notes"]]);
  await remember(T2_PUBLIC, "public", "c-t2", [["UZED", "our release ships on Tuesday"]]);
});

afterAll(async () => {
  await server.close();
});

describe("what a place recalls", () => {
  it("a channel recalls its own passages only, never another channel's, a private channel's or a DM's", async () => {
    expect(await recalled(T1_PUBLIC, "public", "when does the release ship?")).toEqual([
      "UANA: we decided the release ships on Friday after QA",
    ]);
    expect(await recalled(T1_OTHER, "public", "when does the release ship?")).toEqual([
      "UBOB: release party is on Friday in the kitchen",
    ]);
  });

  it("a DM recalls only that DM, and a private channel only itself", async () => {
    expect(await recalled(T1_DM, "dm", "where is the release checklist?")).toEqual([
      "UANA: my release checklist lives in my notes",
    ]);
    expect(await recalled(T1_PRIVATE, "private", "is the release delayed?")).toEqual([
      "UCYD: the release is secretly delayed to Monday",
    ]);
  });

  it("a channel whose visibility changed does not see what was said under the other visibility", async () => {
    expect(await recalled(T1_PRIVATE, "public", "is the release delayed?")).toEqual([]);
  });

  it("another tenant recalls only its own passages", async () => {
    expect(await recalled(T2_PUBLIC, "public", "when does the release ship?")).toEqual([
      "UZED: our release ships on Tuesday",
    ]);
  });

  it("a tenant nobody has written for yet recalls nothing, without an error", async () => {
    const fresh: ConversationKey = { platform: "discord", tenant: "G-new", channel: "1" };
    expect(await recalled(fresh, "public", "anything?")).toEqual([]);
  });
});

describe("one answer's recall", () => {
  it("costs one Vector request and gives the recalled passage, dated", async () => {
    const before = requests.length;
    const result = await recallForAnswer(index, {
      namespace: recallNamespace(PREFIX, T1_PUBLIC),
      filter: recallFilter(T1_PUBLIC, "public"),
      queryText: "UANA: when does the release ship after QA?",
      now: NOW,
      window: { conversationId: "c-now", since: NOW - 60_000 },
      maxTokens: 600,
      minScore: 0,
    });
    expect(requests.length - before).toBe(1);
    expect(result.outcome).toBe("recalled");
    const lines = result.passages.map(recallEntry).join("\n");
    expect(lines).toContain('"earlier":"UANA: we decided the release ships on Friday after QA"');
    expect(lines).toContain(new Date(NOW - 3 * DAY).toISOString().slice(0, 10));
  });

  it("recalls the passage that stands out in a place with only two alike, and nothing for a question they share no word with", async () => {
    const small: ConversationKey = { platform: "slack", tenant: "T-small", channel: "C1" };
    await remember(small, "public", "c-codename", [["UANA", "we decided the release codename is kumquat"]]);
    await remember(small, "public", "c-party", [["UBOB", "we decided the release party is on Friday"]]);
    const ask = (queryText: string) =>
      recallForAnswer(index, {
        namespace: recallNamespace(PREFIX, small),
        filter: recallFilter(small, "public"),
        queryText,
        now: NOW,
        window: { conversationId: "c-now", since: NOW },
        maxTokens: 600,
      });
    expect((await ask("UCYD: what did we decide for the release codename?")).passages.map((p) => p.text)).toEqual([
      "UANA: we decided the release codename is kumquat",
    ]);
    expect((await ask("UCYD: how was your weekend hiking trip?")).passages).toEqual([]);
  });

  it("is skipped, not failed, when Vector refuses the request", async () => {
    const refused = new RecallIndex({ url: server.url, token: "wrong-token" });
    const result = await recallForAnswer(refused, {
      namespace: recallNamespace(PREFIX, T1_PUBLIC),
      filter: recallFilter(T1_PUBLIC, "public"),
      queryText: "release?",
      now: NOW,
      window: { conversationId: "c-now", since: NOW },
      maxTokens: 600,
    });
    expect(result).toEqual({ outcome: "unavailable", passages: [], error: "UpstashError" });
  });

  it("drops and counts a hit whose metadata is not a passage's", async () => {
    const raw = new Index({ url: server.url, token: server.token, retry: false, enableTelemetry: false });
    const namespace = recallNamespace(PREFIX, { platform: "slack", tenant: "T-odd" });
    await raw.upsert({ id: "odd", data: "release notes", metadata: { channel: "C1" } }, { namespace });
    const found = await index.search(namespace, { text: "release notes", filter: "", topK: 5 });
    expect(found).toMatchObject({ hits: [], malformed: 1 });
  });
});

describe("forgetting and retention", () => {
  it("'forget me' deletes every passage with the person's messages and the conversation where they asked", async () => {
    const key: ConversationKey = { platform: "slack", tenant: "T-forget", channel: "C1" };
    await remember(key, "public", "c-a", [
      ["UANA", "I live in Lisbon"],
      ["UBOB", "nice city"],
    ]);
    await remember(key, "public", "c-b", [["UBOB", "my cat is called Tom"]]);
    await remember(key, "public", "c-asked", [["UCYD", "the deploy key rotates monthly"]]);
    expect(await index.deleteWhere(recallNamespace(PREFIX, key), forgetFilter("UANA", "c-asked"))).toBe(2);
    expect(await recalled(key, "public", "where does Ana live? Lisbon cat deploy key")).toEqual([
      "UBOB: my cat is called Tom",
    ]);
  });

  it("deletes passages older than the retention, a bounded number of namespaces per run, carrying on where it stopped", async () => {
    const prefix = `retention-${randomUUID().slice(0, 8)}`;
    const keys = ["A", "B", "C"].map((tenant): ConversationKey => ({ platform: "slack", tenant, channel: "C1" }));
    for (const key of keys) {
      const namespace = recallNamespace(prefix, key);
      const source = { key, visibility: "public" as const, bot: BOT, forgotten: new Set<string>() };
      const at = (daysAgo: number, id: string): StoredMessage => ({
        id,
        role: "user",
        authorId: "U",
        authorName: "U",
        text: `note ${id}`,
        ts: NOW - daysAgo * DAY,
      });
      await index.upsert(namespace, [
        ...conversationPassages({ ...source, conversationId: "old" }, [at(120, "o")]),
        ...conversationPassages({ ...source, conversationId: "new" }, [at(10, "n")]),
      ]);
    }
    const cutoff = retentionCutoff(NOW, 90);
    const first = await sweepExpiredPassages(index, { keyPrefix: prefix, cutoff, maxNamespaces: 2 });
    expect(first).toEqual({ deleted: 2, namespaces: 2, next: recallNamespace(prefix, keys[1]!) });
    const second = await sweepExpiredPassages(index, {
      keyPrefix: prefix,
      cutoff,
      maxNamespaces: 2,
      after: first.next,
    });
    expect(second).toEqual({ deleted: 1, namespaces: 1 });
    for (const key of keys) expect(await recalled(key, "public", "note o n", prefix)).toEqual(["U: note n"]);
  });

  it("an uninstall drops the tenant's namespace, and dropping it again finds none", async () => {
    const namespace = recallNamespace(PREFIX, T2_PUBLIC);
    expect(await index.dropNamespace(namespace)).toBe(true);
    expect(await recalled(T2_PUBLIC, "public", "when does the release ship?")).toEqual([]);
    expect(await index.dropNamespace(namespace)).toBe(false);
    expect(await index.deleteWhere(namespace, forgetFilter("UZED", "c"))).toBe(0);
  });
});
