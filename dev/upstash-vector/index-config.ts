/**
 * @module
 * What kind of index the stand-in plays (chosen at start, fixed for its key prefix): dense, sparse or hybrid,
 * the dense dimension and similarity function, and the vectors each kind requires. Text is embedded by the
 * local models: BM25 for the sparse part, LOCAL_HASHED_NGRAM for the dense part.
 */
import * as z from "zod";
import { bm25Document, bm25Query, MAX_SPARSE_ENTRIES, type SparseVector } from "./bm25.ts";
import { embedLocally, LOCAL_EMBEDDING_MODEL } from "./dense-embedder.ts";
import { VectorError } from "./errors.ts";

export const INDEX_TYPES = ["DENSE", "SPARSE", "HYBRID"] as const;
export const SIMILARITY_FUNCTIONS = ["COSINE", "EUCLIDEAN", "DOT_PRODUCT"] as const;
const SPARSE_EMBEDDING_MODEL = "BM25";

export const indexConfigSchema = z.object({
  type: z.enum(INDEX_TYPES),
  dimension: z.number().int().min(1).max(5_376),
  similarity: z.enum(SIMILARITY_FUNCTIONS),
});
export type IndexConfig = z.output<typeof indexConfigSchema>;

export interface VectorParts {
  vector?: number[];
  sparseVector?: SparseVector;
}

const hasDense = (config: IndexConfig) => config.type !== "SPARSE";
const hasSparse = (config: IndexConfig) => config.type !== "DENSE";

/** The parts an upsert must carry for this kind of index (a hybrid index needs both). */
export function checkUpsertParts(config: IndexConfig, parts: VectorParts): void {
  if (hasDense(config) && !parts.vector)
    throw new VectorError(422, `A ${config.type} index needs a dense vector for every upsert.`);
  if (hasSparse(config) && !parts.sparseVector)
    throw new VectorError(422, `A ${config.type} index needs a sparse vector for every upsert.`);
  checkParts(config, parts);
}

/** Whatever parts are given fit this index: right dimension, a sparse part only where there is a sparse index. */
export function checkParts(config: IndexConfig, parts: VectorParts): void {
  if (parts.vector) {
    if (!hasDense(config)) throw new VectorError(422, "This is a SPARSE index: send sparseVector, not vector.");
    if (parts.vector.length !== config.dimension) {
      throw new VectorError(422, `Invalid vector dimension: ${parts.vector.length}, expected: ${config.dimension}`);
    }
  }
  if (parts.sparseVector) {
    if (!hasSparse(config)) throw new VectorError(422, "This is a DENSE index: send vector, not sparseVector.");
    if (parts.sparseVector.indices.length > MAX_SPARSE_ENTRIES) {
      throw new VectorError(422, `A sparse vector may have at most ${MAX_SPARSE_ENTRIES} non-zero entries.`);
    }
  }
}

/** A stored text's vectors: every part the index has. */
export function embedDocument(config: IndexConfig, text: string): VectorParts {
  return {
    ...(hasDense(config) ? { vector: embedLocally(text, config.dimension) } : {}),
    ...(hasSparse(config) ? { sparseVector: bm25Document(text) } : {}),
  };
}

export type QueryMode = "HYBRID" | "DENSE" | "SPARSE";

/** A query text's vectors; on a hybrid index `mode` picks one part or both. */
export function embedQuery(config: IndexConfig, text: string, mode: QueryMode): VectorParts {
  const dense = hasDense(config) && (config.type !== "HYBRID" || mode !== "SPARSE");
  const sparse = hasSparse(config) && (config.type !== "HYBRID" || mode !== "DENSE");
  return {
    ...(dense ? { vector: embedLocally(text, config.dimension) } : {}),
    ...(sparse ? { sparseVector: bm25Query(text) } : {}),
  };
}

export function indexInfo(config: IndexConfig) {
  return {
    dimension: hasDense(config) ? config.dimension : 0,
    similarityFunction: config.similarity,
    indexType: config.type,
    ...(hasDense(config)
      ? {
          denseIndex: {
            dimension: config.dimension,
            similarityFunction: config.similarity,
            embeddingModel: LOCAL_EMBEDDING_MODEL,
          },
        }
      : {}),
    ...(hasSparse(config) ? { sparseIndex: { embeddingModel: SPARSE_EMBEDDING_MODEL } } : {}),
  };
}
