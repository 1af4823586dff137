/**
 * @module
 * The Upstash Vector stand-in, driven by the real `@upstash/vector` client: every call Parley makes and the ones
 * the protocol facts list, the errors the client surfaces, namespaces, and data surviving a restart.
 */
import { randomUUID } from "node:crypto";
import { FusionAlgorithm, Index, QueryMode, WeightingStrategy } from "@upstash/vector";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../../dev/ports.ts";
import {
  startVectorStandIn,
  type RunningVectorStandIn,
  type VectorStandInOptions,
} from "../../dev/upstash-vector/server.ts";

const running: RunningVectorStandIn[] = [];

async function standIn(opts: Partial<VectorStandInOptions> = {}): Promise<RunningVectorStandIn> {
  const server = await startVectorStandIn({
    port: await freePort(),
    redisUrl: inject("redisUrl"),
    keyPrefix: `vector-contract-${randomUUID()}:`,
    ...opts,
  });
  running.push(server);
  return server;
}

function client(server: { url: string; token: string }, token = server.token): Index {
  return new Index({ url: server.url, token, retry: false, enableTelemetry: false });
}

afterAll(async () => {
  for (const server of running) await server.close();
});

describe("vectors as given (a 3-dimension dense index)", () => {
  let server: RunningVectorStandIn;
  let index: Index;
  beforeAll(async () => {
    server = await standIn({ indexType: "DENSE", dimension: 3 });
    index = client(server);
    // The REST API stores `data` beside a given vector (upsert.mdx); the client's types leave that out.
    const withData = { id: "b", vector: [0, 1, 0], metadata: { team: "blue" }, data: "bee" } as {
      id: string;
      vector: number[];
    };
    await index.upsert([
      { id: "a", vector: [1, 0, 0], metadata: { team: "red" } },
      withData,
      { id: "c", vector: [-1, 0, 0] },
    ]);
  });

  it("fetches by ids in their order, null for an unknown id, with only the parts asked for", async () => {
    expect(await index.fetch(["b", "nope", "a"], { includeMetadata: true, includeData: true })).toEqual([
      { id: "b", metadata: { team: "blue" }, data: "bee" },
      null,
      { id: "a", metadata: { team: "red" } },
    ]);
    expect(await index.fetch(["a"], { includeVectors: true })).toEqual([{ id: "a", vector: [1, 0, 0] }]);
  });

  it("scores a query by cosine mapped to [0, 1]: the same direction 1, the opposite 0", async () => {
    const hits = await index.query({ vector: [1, 0, 0], topK: 3 });
    expect(hits.map((h) => [h.id, h.score])).toEqual([
      ["a", 1],
      ["b", 0.5],
      ["c", 0],
    ]);
  });

  it("answers a batch with one list per query, and a batch of one as one list", async () => {
    const many = await index.queryMany([
      { vector: [0, 1, 0], topK: 1 },
      { vector: [-1, 0, 0], topK: 1 },
    ]);
    expect(many.map((list) => list.map((h) => h.id))).toEqual([["b"], ["c"]]);
    expect((await index.queryMany([{ vector: [0, 1, 0], topK: 1 }])).map((list) => list.map((h) => h.id))).toEqual([
      ["b"],
    ]);
  });

  it("refuses a vector of the wrong dimension with 422 and says which dimension it expects", async () => {
    await expect(index.upsert({ id: "d", vector: [1, 2] })).rejects.toThrow("Invalid vector dimension: 2, expected: 3");
    await expect(index.query({ vector: [1, 2], topK: 1 })).rejects.toThrow("Invalid vector dimension: 2, expected: 3");
  });

  it("refuses a wrong token with Upstash's 401 message", async () => {
    await expect(client(server, "wrong-token").info()).rejects.toThrow("Unauthorized: Invalid auth token");
  });

  it("refuses fetching by ids and prefix at once, and deleting by more than one selector", async () => {
    // Both shapes are type errors in the client; a caller in plain JavaScript can still send them.
    await expect(index.fetch({ ids: ["a"], prefix: "a" } as never)).rejects.toThrow(
      "Only one of ids or prefix must be provided.",
    );
    await expect(index.delete({ ids: ["a"], prefix: "a" } as never)).rejects.toThrow(
      "Only and only one of the ids, prefix, or filter must be provided.",
    );
  });

  it("updates metadata by replacing it, or merging it with PATCH (null removes a key)", async () => {
    await index.upsert({ id: "u", vector: [0, 0, 1], metadata: { a: 1, nested: { x: 1, y: 2 } } });
    expect(
      await index.update({ id: "u", metadata: { nested: { y: null, z: 3 } }, metadataUpdateMode: "PATCH" }),
    ).toEqual({ updated: 1 });
    expect((await index.fetch(["u"], { includeMetadata: true }))[0]?.metadata).toEqual({
      a: 1,
      nested: { x: 1, z: 3 },
    });
    await index.update({ id: "u", metadata: { b: 2 } });
    expect((await index.fetch(["u"], { includeMetadata: true }))[0]?.metadata).toEqual({ b: 2 });
    expect(await index.update({ id: "missing", metadata: { b: 2 } })).toEqual({ updated: 0 });
  });

  it("pages through every vector once with range, in id order, ending with an empty cursor", async () => {
    const ns = index.namespace("paged");
    await ns.upsert(Array.from({ length: 7 }, (_, i) => ({ id: `p${i}`, vector: [i, 1, 0] })));
    const seen: string[] = [];
    let cursor: string | number = 0;
    for (let pages = 0; pages < 10; pages++) {
      const page: { nextCursor: string; vectors: { id: string | number }[] } = await ns.range({ cursor, limit: 3 });
      seen.push(...page.vectors.map((v) => String(v.id)));
      if (page.nextCursor === "") break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(["p0", "p1", "p2", "p3", "p4", "p5", "p6"]);
    expect((await ns.range({ cursor: "0", limit: 10, prefix: "p5" })).vectors.map((v) => v.id)).toEqual(["p5"]);
  });

  it("deletes by ids, by id prefix and by metadata filter, saying how many went", async () => {
    const ns = index.namespace("deletes");
    await ns.upsert([
      { id: "x1", vector: [1, 1, 0], metadata: { kind: "keep" } },
      { id: "x2", vector: [1, 1, 0], metadata: { kind: "drop" } },
      { id: "y1", vector: [1, 1, 0] },
      { id: "z1", vector: [1, 1, 0] },
    ]);
    expect(await ns.delete("z1")).toEqual({ deleted: 1 });
    expect(await ns.delete({ filter: "kind = 'drop'" })).toEqual({ deleted: 1 });
    expect(await ns.delete({ prefix: "y" })).toEqual({ deleted: 1 });
    expect(await ns.delete(["x1", "never"])).toEqual({ deleted: 1 });
    expect(await ns.range({ cursor: 0, limit: 10 })).toEqual({ nextCursor: "", vectors: [] });
  });
});

describe("namespaces", () => {
  let index: Index;
  beforeAll(async () => {
    index = client(await standIn({ indexType: "DENSE", dimension: 2 }));
  });

  it("keeps each namespace's vectors apart, lists them, resets one or all, and deletes one", async () => {
    await index.upsert({ id: "same", vector: [1, 0] });
    await index.namespace("team-a").upsert({ id: "same", vector: [0, 1], metadata: { in: "a" } });
    await index.namespace("team-b").upsert({ id: "only-b", vector: [0, 1] });
    expect(await index.namespace("team-a").fetch(["same", "only-b"], { includeMetadata: true })).toEqual([
      { id: "same", metadata: { in: "a" } },
      null,
    ]);
    expect(await index.listNamespaces()).toEqual(["", "team-a", "team-b"]);
    const info = await index.info();
    expect(info.vectorCount).toBe(3);
    expect(info.namespaces).toEqual({
      "": { vectorCount: 1, pendingVectorCount: 0 },
      "team-a": { vectorCount: 1, pendingVectorCount: 0 },
      "team-b": { vectorCount: 1, pendingVectorCount: 0 },
    });

    expect(await index.namespace("team-a").reset()).toBe("Success");
    expect((await index.info()).namespaces["team-a"]?.vectorCount).toBe(0);
    expect(await index.listNamespaces()).toContain("team-a");
    expect(await index.deleteNamespace("team-b")).toBe("Success");
    expect(await index.listNamespaces()).toEqual(["", "team-a"]);
    await expect(index.deleteNamespace("team-b")).rejects.toThrow(
      "Namespace team-b for the index parley-local does not exist",
    );
    expect(await index.reset({ all: true })).toBe("Success");
    expect((await index.info()).vectorCount).toBe(0);
  });

  it("answers 404 for a query into a namespace nobody wrote to", async () => {
    await expect(index.namespace("never-written").query({ vector: [1, 0], topK: 1 })).rejects.toThrow(
      "Namespace never-written for the index parley-local does not exist",
    );
  });
});

describe("text, embedded by the local models (a hybrid index)", () => {
  let index: Index;
  let ns: ReturnType<Index["namespace"]>;
  beforeAll(async () => {
    index = client(await standIn());
    ns = index.namespace("texts");
    await ns.upsert([
      {
        id: "release",
        data: "We decided to ship the release on Friday after the QA pass",
        metadata: { channel: "C1" },
      },
      { id: "limits", data: "The API limits are 100 requests per minute per token", metadata: { channel: "C1" } },
      { id: "lunch", data: "Lunch is pizza today at noon", metadata: { channel: "C2" } },
    ]);
  });

  it("labels its models in /info: BM25 sparse and the local hashed n-gram dense embedder", async () => {
    const info = await index.info();
    expect(info.denseIndex).toEqual({
      dimension: 384,
      similarityFunction: "COSINE",
      embeddingModel: "LOCAL_HASHED_NGRAM",
    });
    expect(info.sparseIndex).toEqual({ embeddingModel: "BM25" });
    expect(info).toMatchObject({ indexType: "HYBRID", dimension: 384, pendingVectorCount: 0 });
  });

  it("finds the passage a question is about, in every query mode, and returns its text and metadata", async () => {
    for (const queryMode of [QueryMode.HYBRID, QueryMode.DENSE, QueryMode.SPARSE]) {
      const hits = await ns.query({
        data: "what did we decide about releasing?",
        topK: 1,
        includeData: true,
        includeMetadata: true,
        queryMode,
      });
      expect(hits[0], queryMode).toMatchObject({
        id: "release",
        data: "We decided to ship the release on Friday after the QA pass",
        metadata: { channel: "C1" },
      });
    }
  });

  it("fuses with RRF by default (K = 60: at most 2/61) and with DBSF when asked", async () => {
    const rrf = await ns.query({ data: "api request limits", topK: 3 });
    expect(rrf[0]?.id).toBe("limits");
    expect(rrf[0]!.score).toBeCloseTo(2 / 61, 10);
    const dbsf = await ns.query({ data: "api request limits", topK: 3, fusionAlgorithm: FusionAlgorithm.DBSF });
    expect(dbsf[0]?.id).toBe("limits");
    expect(dbsf[0]!.score).toBeGreaterThan(2 / 61);
  });

  it("applies a metadata filter to text queries", async () => {
    const hits = await ns.query({ data: "pizza release", topK: 3, filter: "channel = 'C2'" });
    expect(hits.map((h) => h.id)).toEqual(["lunch"]);
  });

  it("re-embeds a vector whose data is updated", async () => {
    await ns.upsert({ id: "moving", data: "the office moves to Berlin" });
    await ns.update({ id: "moving", data: "the office moves to Lisbon" });
    const [hit] = await ns.query({ data: "Lisbon", topK: 1, queryMode: QueryMode.SPARSE, includeData: true });
    expect(hit).toMatchObject({ id: "moving", data: "the office moves to Lisbon" });
  });

  it("refuses a hybrid upsert that lacks the sparse part", async () => {
    await expect(ns.upsert({ id: "half", vector: new Array(384).fill(0.1) })).rejects.toThrow("needs a sparse vector");
  });
});

describe("sparse vectors as given (a sparse index)", () => {
  let index: Index;
  beforeAll(async () => {
    index = client(await standIn({ indexType: "SPARSE" }));
    await index.upsert([
      { id: "common", sparseVector: { indices: [1, 2], values: [3, 1] } },
      { id: "rare", sparseVector: { indices: [1, 9], values: [1, 1] } },
      { id: "other", sparseVector: { indices: [1, 5], values: [1, 1] } },
      { id: "none", sparseVector: { indices: [7], values: [1] } },
    ]);
  });

  it("scores the inner product over matching indices only, and leaves out vectors with no match", async () => {
    const hits = await index.query({ sparseVector: { indices: [1, 9], values: [1, 1] }, topK: 10 });
    expect(hits.map((h) => [h.id, h.score])).toEqual([
      ["common", 3],
      ["rare", 2],
      ["other", 1],
    ]);
  });

  it("weights by IDF only when asked, which lifts the vector matching the rare index", async () => {
    const hits = await index.query({
      sparseVector: { indices: [1, 9], values: [1, 1] },
      topK: 1,
      weightingStrategy: WeightingStrategy.IDF,
    });
    expect(hits[0]?.id).toBe("rare");
  });

  it("refuses a dense vector", async () => {
    await expect(index.query({ vector: [1, 2, 3], topK: 1 })).rejects.toThrow("SPARSE index");
  });
});

describe("a restart", () => {
  it("keeps the vectors: a new stand-in on the same prefix serves them", async () => {
    const keyPrefix = `vector-restart-${randomUUID()}:`;
    const first = await standIn({ keyPrefix });
    await client(first)
      .namespace("kept")
      .upsert({ id: "fact", data: "Bob's birthday is in June", metadata: { who: "bob" } });
    await first.close();
    running.splice(running.indexOf(first), 1);

    const second = await standIn({ keyPrefix });
    const index = client(second);
    expect(await index.namespace("kept").fetch(["fact"], { includeMetadata: true, includeData: true })).toEqual([
      { id: "fact", metadata: { who: "bob" }, data: "Bob's birthday is in June" },
    ]);
    expect((await index.namespace("kept").query({ data: "when is the birthday", topK: 1 }))[0]?.id).toBe("fact");
  });

  it("refuses to start a different kind of index on a prefix that holds one, saying what it holds", async () => {
    const keyPrefix = `vector-kind-${randomUUID()}:`;
    await standIn({ keyPrefix, indexType: "DENSE", dimension: 8 });
    await expect(standIn({ keyPrefix, indexType: "HYBRID" })).rejects.toThrow(
      /holds a DENSE index \(dimension 8, COSINE\)/,
    );
  });
});

describe("the HTTP surface", () => {
  let server: RunningVectorStandIn;
  beforeAll(async () => {
    server = await standIn({ indexType: "DENSE", dimension: 2 });
  });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}/${path}`, { ...init, headers: { authorization: `Bearer ${server.token}`, ...init.headers } });

  it("accepts the documented verbs as well as POST, and refuses others with 405 in the error envelope", async () => {
    expect(await (await call("info", { method: "GET" })).json()).toMatchObject({ result: { vectorCount: 0 } });
    expect(await (await call("reset", { method: "DELETE" })).json()).toEqual({ result: "Success" });
    const patch = await call("info", { method: "PATCH" });
    expect(patch.status).toBe(405);
    expect(await patch.json()).toMatchObject({ status: 405 });
  });

  it("answers an unknown command or a body that is not JSON with 400 in the error envelope", async () => {
    const unknown = await call("frobnicate", { method: "POST", body: "[]" });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ status: 400, error: expect.stringContaining("Unknown command") });
    const broken = await call("upsert", { method: "POST", body: "{not json" });
    expect(await broken.json()).toEqual({ error: "Request body is not valid JSON", status: 400 });
  });

  it("answers a missing token with 401", async () => {
    const res = await fetch(`${server.url}/info`, { method: "POST", body: "[]" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Unauthorized: Invalid auth token", status: 401 });
  });
});
