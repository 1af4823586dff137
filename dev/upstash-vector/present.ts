/**
 * @module
 * A stored vector as the API returns it: the id (and score for a query), then only the parts asked for and
 * present. The client compares results with objects that lack absent keys, so absent parts are left out.
 */
import type { Includes } from "./payloads.ts";
import type { StoredVector } from "./store.ts";

export function present(v: StoredVector, include: Includes, score?: number): Record<string, unknown> {
  return {
    id: v.id,
    ...(score === undefined ? {} : { score }),
    ...(include.includeVectors && v.vector ? { vector: v.vector } : {}),
    ...(include.includeVectors && v.sparseVector ? { sparseVector: v.sparseVector } : {}),
    ...(include.includeMetadata && v.metadata ? { metadata: v.metadata } : {}),
    ...(include.includeData && v.data !== undefined ? { data: v.data } : {}),
  };
}
