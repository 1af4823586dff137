/**
 * @module
 * Recall's fusion of a hybrid index's two halves (lib/memory/recall/fusion.ts): a passage both lists rank well
 * comes first; with the dense list at half weight, a passage only the words (BM25) point to comes before one only
 * the dense embedder likes; at equal weights it ranks as Upstash's own DBSF does (the stand-in's fusion).
 */
import { describe, expect, it } from "vitest";
import { fuse } from "../../dev/upstash-vector/fusion.ts";
import { fuseWeighted } from "../../lib/memory/recall/fusion.ts";

const list = (...hits: [id: string, score: number][]) => hits.map(([id, score]) => ({ id, score }));

const dense = list(["paraphrase", 0.91], ["both", 0.9], ["x1", 0.7], ["x2", 0.69], ["x3", 0.68]);
const sparse = list(["error-code", 14], ["both", 13.5], ["y1", 4], ["y2", 3.8], ["y3", 3.5]);

describe("recall's weighted fusion", () => {
  it("puts first the passage both lists rank well, then the words' pick before the embedder's at half weight", () => {
    const ranked = fuseWeighted(dense, sparse, 0.5).map((h) => h.id);
    expect(ranked.slice(0, 2)).toEqual(["both", "error-code"]);
    expect(ranked.indexOf("error-code")).toBeLessThan(ranked.indexOf("paraphrase"));
  });

  it("lets the embedder's pick come first when it counts as much as the words", () => {
    expect(
      fuseWeighted(dense, sparse, 2)
        .map((h) => h.id)
        .slice(0, 2),
    ).toEqual(["both", "paraphrase"]);
  });

  it("ranks and scores at equal weights as Upstash's DBSF does, keeping each passage once with its fields", () => {
    const withText = dense.map((h) => ({ ...h, text: `text of ${h.id}` }));
    const weighted = fuseWeighted(
      withText,
      sparse.map((h) => ({ ...h, text: `text of ${h.id}` })),
      1,
    );
    expect(weighted.map(({ id, score }) => ({ id, score }))).toEqual(fuse("DBSF", [dense, sparse], 10));
    expect(new Set(weighted.map((h) => h.id)).size).toBe(weighted.length);
    expect(weighted.find((h) => h.id === "both")).toMatchObject({ text: "text of both" });
  });
});
