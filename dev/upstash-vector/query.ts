/**
 * @module
 * /query and /query-data, single or batch: a body that is an array answers an array of result lists, except that
 * a one-element array answers the flat list (as the docs say, and as the client expects). On a hybrid index a query
 * with both parts fuses the two result lists (RRF by default, or DBSF); with one part it searches only that part.
 */
import type { CommandContext, CommandHandler } from "./context.ts";
import { requireNamespace } from "./context.ts";
import { VectorError } from "./errors.ts";
import { parseFilter } from "./filter-parse.ts";
import { fuse, type Scored } from "./fusion.ts";
import { checkParts, embedQuery, type VectorParts } from "./index-config.ts";
import { parseBody, queryDataSchema, querySchema, type VectorQuery } from "./payloads.ts";
import { present } from "./present.ts";
import { allowedRows, denseSearch, sparseSearch } from "./search.ts";

type QueryOptions = Omit<VectorQuery, "vector" | "sparseVector">;

export const query: CommandHandler = async (ctx, req) => {
  const body = parseBody(querySchema, req.body, "query");
  return answerBatch(body, (q) => {
    if (!q.vector && !q.sparseVector)
      throw new VectorError(400, "Either data, vector or sparseVector should be provided.");
    checkParts(ctx.config, q);
    return search(ctx, req.namespace, q, q);
  });
};

export const queryData: CommandHandler = async (ctx, req) => {
  const body = parseBody(queryDataSchema, req.body, "query-data");
  return answerBatch(body, (q) => search(ctx, req.namespace, embedQuery(ctx.config, q.data, q.queryMode), q));
};

async function answerBatch<Q>(body: Q | Q[], one: (q: Q) => Promise<unknown[]>): Promise<unknown[]> {
  if (!Array.isArray(body)) return one(body);
  const results = [];
  for (const q of body) results.push(await one(q));
  return results.length === 1 ? results[0]! : results;
}

async function search(ctx: CommandContext, namespace: string, parts: VectorParts, q: QueryOptions): Promise<unknown[]> {
  await requireNamespace(ctx, namespace);
  const snapshot = await ctx.store.snapshot(namespace);
  const allowed = allowedRows(snapshot, parseFilter(q.filter));
  const lists: Scored[][] = [];
  if (parts.vector) lists.push(denseSearch(snapshot, ctx.config, parts.vector, allowed, q.topK));
  if (parts.sparseVector)
    lists.push(sparseSearch(snapshot, parts.sparseVector, q.weightingStrategy === "IDF", allowed, q.topK));
  const hits = lists.length === 1 ? lists[0]! : fuse(q.fusionAlgorithm, lists, q.topK);
  return hits.map((hit) => present(snapshot.byId.get(hit.id)!, q, hit.score));
}
