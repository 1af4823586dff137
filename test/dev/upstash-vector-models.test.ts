/**
 * @module
 * The stand-in's local text models: BM25 sparse vectors with Upstash's scheme (stop words, stemming, k1 1.2, b 0.75,
 * avgdl 32) and the LOCAL_HASHED_NGRAM dense embedder.
 */
import { describe, expect, it } from "vitest";
import { bm25Document, bm25Query, contentWords } from "../../dev/upstash-vector/bm25.ts";
import { embedLocally } from "../../dev/upstash-vector/dense-embedder.ts";

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe("BM25 sparse vectors", () => {
  it("drop stop words and join apostrophes", () => {
    expect(contentWords("What did we decide about THE release? Don't ship it")).toEqual(["decide", "release", "ship"]);
  });

  it("give inflections of one word the same index", () => {
    expect(bm25Query("running").indices).toEqual(bm25Query("runs").indices);
    expect(bm25Query("releases").indices).toEqual(bm25Query("released").indices);
  });

  it("weight a document's words by BM25's term-frequency part with avgdl 32", () => {
    const norm = (length: number) => 1.2 * (1 - 0.75 + (0.75 * length) / 32);
    expect(bm25Document("deploy").values).toEqual([2.2 / (1 + norm(1))]);
    const twice = bm25Document("deploy deploy");
    expect(twice.values[0]).toBeCloseTo((2 * 2.2) / (2 + norm(2)), 12);
  });

  it("give a query 1 per distinct word, sorted by index", () => {
    const query = bm25Query("deploy deploy friday");
    expect(query.values).toEqual([1, 1]);
    expect([...query.indices].sort((a, b) => a - b)).toEqual(query.indices);
  });
});

describe("the local hashed n-gram embedder", () => {
  it("is deterministic and L2-normalised", () => {
    const v = embedLocally("the release ships on Friday", 384);
    expect(v).toEqual(embedLocally("the release ships on Friday", 384));
    expect(Math.hypot(...v)).toBeCloseTo(1, 12);
  });

  it("puts texts that share words or word pieces closer than unrelated ones", () => {
    const question = embedLocally("when do we release?", 384);
    expect(cosine(question, embedLocally("the releases ship on Friday", 384))).toBeGreaterThan(
      cosine(question, embedLocally("pizza for lunch at noon", 384)),
    );
  });

  it("gives a text without content words the zero vector", () => {
    expect(embedLocally("and the of", 16)).toEqual(new Array(16).fill(0));
  });
});
