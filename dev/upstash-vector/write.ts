/**
 * @module
 * The writes: /upsert (vectors as given), /upsert-data (text embedded by the local models, kept as `data`),
 * /update (parts of one vector; metadata replaced, or merged as an RFC 7396 merge patch with PATCH), /delete (by
 * ids, id prefix or metadata filter, exactly one), /reset (one namespace, or every one with ?all) and
 * /delete-namespace.
 */
import type { CommandHandler } from "./context.ts";
import { requireNamespace } from "./context.ts";
import { VectorError } from "./errors.ts";
import { matchesFilter } from "./filter-match.ts";
import { parseFilter } from "./filter-parse.ts";
import { checkParts, checkUpsertParts, embedDocument } from "./index-config.ts";
import { deleteSchema, parseBody, updateSchema, upsertDataSchema, upsertSchema } from "./payloads.ts";
import { DEFAULT_NAMESPACE, type StoredVector } from "./store.ts";

const asList = <T>(body: T | T[]): T[] => (Array.isArray(body) ? body : [body]);

export const upsert: CommandHandler = async (ctx, req) => {
  const items = asList(parseBody(upsertSchema, req.body, "upsert"));
  for (const item of items) checkUpsertParts(ctx.config, item);
  await ctx.store.put(req.namespace, items);
  return "Success";
};

export const upsertData: CommandHandler = async (ctx, req) => {
  const items = asList(parseBody(upsertDataSchema, req.body, "upsert-data"));
  await ctx.store.put(
    req.namespace,
    items.map((item) => ({ ...item, ...embedDocument(ctx.config, item.data) })),
  );
  return "Success";
};

export const update: CommandHandler = async (ctx, req) => {
  const body = parseBody(updateSchema, req.body, "update");
  if (ctx.config.type === "HYBRID" && !body.vector !== !body.sparseVector) {
    throw new VectorError(422, "A HYBRID index updates both vector and sparseVector, or neither.");
  }
  checkParts(ctx.config, body);
  await requireNamespace(ctx, req.namespace);
  const current = (await ctx.store.snapshot(req.namespace)).byId.get(body.id);
  if (!current) return { updated: 0 };
  const next: StoredVector = { ...current };
  if (body.vector) next.vector = body.vector;
  if (body.sparseVector) next.sparseVector = body.sparseVector;
  if (body.data !== undefined) Object.assign(next, { data: body.data }, embedDocument(ctx.config, body.data));
  if (body.metadata) {
    next.metadata =
      body.metadataUpdateMode === "PATCH"
        ? (mergePatch(current.metadata ?? {}, body.metadata) as Record<string, unknown>)
        : body.metadata;
  }
  await ctx.store.put(req.namespace, [next]);
  return { updated: 1 };
};

/** RFC 7396: objects merge key by key, null removes a key, anything else replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) return patch;
  const result: Record<string, unknown> =
    typeof target === "object" && target !== null && !Array.isArray(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

export const deleteVectors: CommandHandler = async (ctx, req) => {
  const body = parseBody(deleteSchema, req.body, "delete");
  const given = [body.ids, body.prefix, body.filter].filter((v) => v !== undefined).length;
  if (given !== 1) throw new VectorError(400, "Only and only one of the ids, prefix, or filter must be provided.");
  await requireNamespace(ctx, req.namespace);
  const snapshot = await ctx.store.snapshot(req.namespace);
  let ids: string[];
  if (body.ids) ids = body.ids;
  else if (body.prefix !== undefined)
    ids = snapshot.vectors.filter((v) => v.id.startsWith(body.prefix!)).map((v) => v.id);
  else {
    const filter = parseFilter(body.filter!);
    ids = snapshot.vectors.filter((v) => matchesFilter(filter, v.metadata)).map((v) => v.id);
  }
  return { deleted: await ctx.store.remove(req.namespace, ids) };
};

export const reset: CommandHandler = async (ctx, req) => {
  if (req.query.has("all")) {
    for (const name of await ctx.store.namespaces()) await ctx.store.clear(name);
    return "Success";
  }
  await requireNamespace(ctx, req.namespace);
  await ctx.store.clear(req.namespace);
  return "Success";
};

export const deleteNamespace: CommandHandler = async (ctx, req) => {
  if (req.namespace === DEFAULT_NAMESPACE) throw new VectorError(400, "The default namespace cannot be deleted.");
  await requireNamespace(ctx, req.namespace);
  await ctx.store.clear(req.namespace, true);
  return "Success";
};
