/**
 * @module
 * The request bodies of the Upstash Vector REST API, as the official client sends them. Ids may come as numbers
 * (the client's types allow it) and are stored as strings.
 */
import * as z from "zod";
import { VectorError } from "./errors.ts";

const id = z.union([z.string().min(1, "id may not be empty"), z.number()]).transform(String);
const metadata = z.record(z.string(), z.unknown());
const include = {
  includeMetadata: z.boolean().optional(),
  includeVectors: z.boolean().optional(),
  includeData: z.boolean().optional(),
};

const sparseVectorSchema = z
  .object({
    indices: z.array(
      z
        .number()
        .int()
        .min(0)
        .max(2 ** 32 - 1),
    ),
    values: z.array(z.number()),
  })
  .refine((v) => v.indices.length === v.values.length, "sparseVector indices and values must have the same length")
  .transform((v) => {
    // Sorted by index, one entry per index (the last one given wins).
    const byIndex = new Map(v.indices.map((index, i) => [index, v.values[i]!]));
    const indices = [...byIndex.keys()].sort((a, b) => a - b);
    return { indices, values: indices.map((index) => byIndex.get(index)!) };
  });

const vectorItem = z.object({
  id,
  vector: z.array(z.number()).optional(),
  sparseVector: sparseVectorSchema.optional(),
  metadata: metadata.optional(),
  data: z.string().optional(),
});
export const upsertSchema = z.union([vectorItem, z.array(vectorItem)]);

const dataItem = z.object({ id, data: z.string(), metadata: metadata.optional() });
export const upsertDataSchema = z.union([dataItem, z.array(dataItem)]);

const queryOptions = {
  topK: z.number().int().min(1).max(1_000).default(10),
  filter: z.string().default(""),
  ...include,
  weightingStrategy: z.literal("IDF").optional(),
  fusionAlgorithm: z.enum(["RRF", "DBSF"]).default("RRF"),
  queryMode: z.enum(["HYBRID", "DENSE", "SPARSE"]).default("HYBRID"),
};
const vectorQuery = z.object({
  ...queryOptions,
  vector: z.array(z.number()).optional(),
  sparseVector: sparseVectorSchema.optional(),
});
export const querySchema = z.union([vectorQuery, z.array(vectorQuery)]);
const dataQuery = z.object({ ...queryOptions, data: z.string() });
export const queryDataSchema = z.union([dataQuery, z.array(dataQuery)]);
export type VectorQuery = z.output<typeof vectorQuery>;

export const fetchSchema = z.object({ ids: z.array(id).optional(), prefix: z.string().optional(), ...include });
export const deleteSchema = z.object({
  ids: z.array(id).optional(),
  prefix: z.string().optional(),
  filter: z.string().optional(),
});
export const rangeSchema = z.object({
  cursor: z.union([z.string(), z.number()]).transform(String),
  limit: z.number().int().min(0),
  prefix: z.string().optional(),
  ...include,
});
export const updateSchema = z.object({
  id,
  vector: z.array(z.number()).optional(),
  sparseVector: sparseVectorSchema.optional(),
  data: z.string().optional(),
  metadata: metadata.optional(),
  metadataUpdateMode: z.enum(["OVERWRITE", "PATCH"]).default("OVERWRITE"),
});

export type Includes = { includeMetadata?: boolean; includeVectors?: boolean; includeData?: boolean };

/** Parses `body` or refuses it with 400 and the first problem, named by its path. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, command: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  throw new VectorError(400, `Invalid request body for ${command}: ${where}${issue?.message ?? "malformed"}`);
}
