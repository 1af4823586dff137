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
import { passageMetadataSchema, type Passage } from "./passage.ts";

/** How text queries search: which part of a hybrid index, how its two lists merge, BM25 with IDF. */
export interface SearchMode {
  queryMode: "HYBRID" | "DENSE" | "SPARSE";
  fusion: "RRF" | "DBSF";
}

/** Parley's choice from bench/recall (see its README): hybrid, fused with DBSF. */
export const RECALL_SEARCH_MODE: SearchMode = { queryMode: "HYBRID", fusion: "DBSF" };

export interface SearchResult {
  hits: RecalledPassage[];
  /** Hits whose metadata or text did not have the expected shape. */
  malformed: number;
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
    this.#index = new Index({ url: config.url, token: config.token, enableTelemetry: false, retry: { retries: 2, backoff: (n) => 50 * 2 ** n } });
  }

  /** Stores or replaces the passages (one request; Upstash bills each passage as one update). */
  async upsert(namespace: string, passages: Passage[]): Promise<void> {
    if (passages.length === 0) return;
    await this.#index.upsert(
      passages.map((p) => ({ id: p.id, data: p.text, metadata: p.metadata })),
      { namespace },
    );
  }

  async search(namespace: string, query: { text: string; filter: string; topK: number; mode?: SearchMode }): Promise<SearchResult> {
    const mode = query.mode ?? RECALL_SEARCH_MODE;
    const raw = await whenNamespaceExists([], () =>
      this.#index.query(
        {
          data: query.text,
          topK: query.topK,
          filter: query.filter,
          includeData: true,
          includeMetadata: true,
          weightingStrategy: WeightingStrategy.IDF,
          queryMode: QueryMode[mode.queryMode],
          fusionAlgorithm: FusionAlgorithm[mode.fusion],
        },
        { namespace },
      ),
    );
    const hits: RecalledPassage[] = [];
    let malformed = 0;
    for (const hit of queryResultSchema.parse(raw)) {
      const metadata = passageMetadataSchema.safeParse(hit.metadata);
      if (metadata.success && hit.data !== undefined) hits.push({ id: hit.id, score: hit.score, text: hit.data, metadata: metadata.data });
      else malformed++;
    }
    return { hits, malformed };
  }

  /** Deletes the namespace's passages that match `filter`; returns how many went. */
  async deleteWhere(namespace: string, filter: string): Promise<number> {
    return deletedSchema.parse(await whenNamespaceExists({ deleted: 0 }, () => this.#index.delete({ filter }, { namespace }))).deleted;
  }

  /** Drops a tenant's namespace; false when there was none. */
  async dropNamespace(namespace: string): Promise<boolean> {
    return (await whenNamespaceExists(false, async () => (await this.#index.deleteNamespace(namespace), true))) === true;
  }

  async namespaces(): Promise<string[]> {
    return namespacesSchema.parse(await this.#index.listNamespaces());
  }
}

async function whenNamespaceExists<T>(otherwise: T, call: () => Promise<unknown>): Promise<unknown> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof Error && MISSING_NAMESPACE.test(err.message)) return otherwise;
    throw err;
  }
}
