/**
 * @module
 * The thin wrapper the jobs call around `@upstash/vector`: passages in (one upsert-data request per batch; the
 * index embeds the text with its own model), a text query out (one request), deletes by metadata filter, and a
 * tenant's whole namespace. What comes back is checked with zod; a hit with unexpected metadata is dropped and
 * counted, never trusted. A namespace nobody has written to yet reads as empty.
 */
import { FusionAlgorithm, Index, QueryMode, WeightingStrategy } from "@upstash/vector/cloudflare";
import * as z from "../../zod.ts";
import type { RecalledPassage } from "./format.ts";
import { fuseWeighted, type WeightedFusion } from "./fusion.ts";
import { passageMetadataSchema, type Passage } from "./passage.ts";

/** How text queries search: which part of a hybrid index, how its two lists merge, BM25 with IDF. */
export interface SearchMode {
  queryMode: "HYBRID" | "DENSE" | "SPARSE";
  fusion: "RRF" | "DBSF";
  /** A hybrid query's halves asked apart (in one request) and fused by Parley, the dense one weighted (./fusion.ts). */
  weighted?: WeightedFusion;
}

/**
 * Parley's choice from bench/recall, made on its train split (see its README): hybrid, fused with DBSF by Parley,
 * the dense list at half the sparse one's weight, from 30 candidates of each.
 */
export const RECALL_SEARCH_MODE: SearchMode = {
  queryMode: "HYBRID",
  fusion: "DBSF",
  weighted: { denseWeight: 0.5, candidates: 30 },
};

export interface SearchResult {
  hits: RecalledPassage[];
  /** Hits whose metadata or text did not have the expected shape. */
  malformed: number;
  /** How many passages were ranked, and of how many asked for: fewer means the place holds only those. */
  ranked: { of: number; asked: number };
}

const queryResultSchema = z.array(
  z.object({
    id: z.pipe(z.union([z.string(), z.number()]), z.transform(String)),
    score: z.number(),
    data: z.optional(z.string()),
    metadata: z.optional(z.unknown()),
  }),
);
const deletedSchema = z.object({ deleted: z.number().check(z.int(), z.gte(0)) });
const namespacesSchema = z.array(z.string());

/** Upstash's 404 for a namespace that was never written to (or was deleted). */
const MISSING_NAMESPACE = /^Namespace .* does not exist$/;

export class RecallIndex {
  readonly #index: Index;

  constructor(config: { url: string; token: string }) {
    // A lost answer is retried a little (every call here is idempotent); the job's own retries do the rest.
    this.#index = new Index({
      url: config.url,
      token: config.token,
      enableTelemetry: false,
      retry: { retries: 2, backoff: (n) => 50 * 2 ** n },
    });
  }

  /** Stores or replaces the passages (one request; Upstash bills each passage as one update). */
  async upsert(namespace: string, passages: Passage[]): Promise<void> {
    if (passages.length === 0) return;
    await this.#index.upsert(
      passages.map((p) => ({ id: p.id, data: p.text, metadata: p.metadata })),
      { namespace },
    );
  }

  /** One request: a query, or with `weighted` fusion both halves of the hybrid index, fused here. */
  async search(
    namespace: string,
    query: { text: string; filter: string; topK: number; mode?: SearchMode },
  ): Promise<SearchResult> {
    const mode = query.mode ?? RECALL_SEARCH_MODE;
    const ask = (queryMode: SearchMode["queryMode"], topK: number) => ({
      data: query.text,
      topK,
      filter: query.filter,
      includeData: true,
      includeMetadata: true,
      weightingStrategy: WeightingStrategy.IDF,
      queryMode: QueryMode[queryMode],
      fusionAlgorithm: FusionAlgorithm[mode.fusion],
    });
    const { weighted } = mode;
    if (!weighted || mode.queryMode !== "HYBRID") {
      const { hits, malformed } = passagesOf(
        await whenNamespaceExists([], () => this.#index.query(ask(mode.queryMode, query.topK), { namespace })),
      );
      return { hits, malformed: malformed.length, ranked: { of: hits.length + malformed.length, asked: query.topK } };
    }
    const lists = z
      .tuple([z.unknown(), z.unknown()])
      .parse(
        await whenNamespaceExists([[], []], () =>
          this.#index.queryMany([ask("DENSE", weighted.candidates), ask("SPARSE", weighted.candidates)], { namespace }),
        ),
      );
    const [dense, sparse] = lists.map(passagesOf) as [ParsedList, ParsedList];
    return {
      hits: fuseWeighted(dense.hits, sparse.hits, weighted.denseWeight).slice(0, query.topK),
      malformed: new Set([...dense.malformed, ...sparse.malformed]).size,
      // The dense half ranks every passage the filter lets through, up to the candidates asked for.
      ranked: { of: dense.hits.length + dense.malformed.length, asked: weighted.candidates },
    };
  }

  /** Deletes the namespace's passages that match `filter`; returns how many went. */
  async deleteWhere(namespace: string, filter: string): Promise<number> {
    return deletedSchema.parse(
      await whenNamespaceExists({ deleted: 0 }, () => this.#index.delete({ filter }, { namespace })),
    ).deleted;
  }

  /** Drops a tenant's namespace; false when there was none. */
  async dropNamespace(namespace: string): Promise<boolean> {
    const dropped = await whenNamespaceExists(false, async () => {
      await this.#index.deleteNamespace(namespace);
      return true;
    });
    return dropped === true;
  }

  async namespaces(): Promise<string[]> {
    return namespacesSchema.parse(await this.#index.listNamespaces());
  }
}

interface ParsedList {
  hits: RecalledPassage[];
  /** The ids of the hits dropped (one passage may be in both halves of a hybrid index). */
  malformed: string[];
}

/** A result list checked: a hit whose metadata or text is not a passage's is dropped and counted, never trusted. */
function passagesOf(raw: unknown): ParsedList {
  const list: ParsedList = { hits: [], malformed: [] };
  for (const hit of queryResultSchema.parse(raw)) {
    const metadata = passageMetadataSchema.safeParse(hit.metadata);
    if (metadata.success && hit.data !== undefined)
      list.hits.push({ id: hit.id, score: hit.score, text: hit.data, metadata: metadata.data });
    else list.malformed.push(hit.id);
  }
  return list;
}

async function whenNamespaceExists<T>(otherwise: T, call: () => Promise<unknown>): Promise<unknown> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof Error && MISSING_NAMESPACE.test(err.message)) return otherwise;
    throw err;
  }
}
