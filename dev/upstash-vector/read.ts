/**
 * @module
 * /fetch (by ids, in their order with null for unknown ones, or by id prefix, at most 1,000), /range (pages in id
 * order; the cursor is an offset, "" when done), /info and /list-namespaces.
 */
import type { CommandHandler } from "./context.ts";
import { requireNamespace } from "./context.ts";
import { VectorError } from "./errors.ts";
import { indexInfo } from "./index-config.ts";
import { fetchSchema, parseBody, rangeSchema } from "./payloads.ts";
import { present } from "./present.ts";

/** Upstash returns at most this many vectors for a prefix fetch (range pages through more). */
const MAX_PREFIX_FETCH = 1_000;

export const fetchVectors: CommandHandler = async (ctx, req) => {
  const body = parseBody(fetchSchema, req.body, "fetch");
  if (body.ids && body.prefix !== undefined) throw new VectorError(400, "Only one of ids or prefix must be provided.");
  await requireNamespace(ctx, req.namespace);
  const snapshot = await ctx.store.snapshot(req.namespace);
  if (body.prefix !== undefined) {
    const prefix = body.prefix;
    return snapshot.vectors
      .filter((v) => v.id.startsWith(prefix))
      .slice(0, MAX_PREFIX_FETCH)
      .map((v) => present(v, body));
  }
  return (body.ids ?? []).map((id) => {
    const v = snapshot.byId.get(id);
    return v ? present(v, body) : null;
  });
};

export const range: CommandHandler = async (ctx, req) => {
  const body = parseBody(rangeSchema, req.body, "range");
  const offset = Number(body.cursor === "" ? 0 : body.cursor);
  if (!Number.isInteger(offset) || offset < 0)
    throw new VectorError(400, `Invalid cursor ${JSON.stringify(body.cursor)}: pass "0" or a nextCursor from range`);
  await requireNamespace(ctx, req.namespace);
  const snapshot = await ctx.store.snapshot(req.namespace);
  const matching =
    body.prefix === undefined ? snapshot.vectors : snapshot.vectors.filter((v) => v.id.startsWith(body.prefix!));
  const end = offset + body.limit;
  return {
    nextCursor: end < matching.length ? String(end) : "",
    vectors: matching.slice(offset, end).map((v) => present(v, body)),
  };
};

export const info: CommandHandler = async (ctx) => {
  const namespaces: Record<string, { vectorCount: number; pendingVectorCount: number }> = {};
  let vectorCount = 0;
  let indexSize = 0;
  for (const name of await ctx.store.namespaces()) {
    const snapshot = await ctx.store.snapshot(name);
    namespaces[name] = { vectorCount: snapshot.vectors.length, pendingVectorCount: 0 };
    vectorCount += snapshot.vectors.length;
    indexSize += snapshot.bytes;
  }
  // Indexing is synchronous here: nothing is ever pending.
  return { vectorCount, pendingVectorCount: 0, indexSize, ...indexInfo(ctx.config), namespaces };
};

export const listNamespaces: CommandHandler = async (ctx) => ctx.store.namespaces();
