/**
 * @module
 * The stand-in's vectors in redis-server, under its own key prefix, so they survive a restart:
 *   <p>config      the index kind (a prefix holds one kind of index)
 *   <p>namespaces  set of namespace names ("" always)
 *   <p>ns:<name>   hash id → JSON of {id, vector?, sparseVector?, metadata?, data?}
 *   <p>versions    hash name → write counter, bumped in the same transaction as every write
 * Searching reads a whole namespace; it is kept in memory and read again only when its counter moved, so two
 * stand-ins on one prefix never serve stale vectors.
 */
import { Redis } from "ioredis";
import * as z from "zod";
import type { SparseVector } from "./bm25.ts";
import { indexConfigSchema, type IndexConfig } from "./index-config.ts";

export interface StoredVector {
  id: string;
  vector?: number[];
  sparseVector?: SparseVector;
  metadata?: Record<string, unknown>;
  data?: string;
}

/** One namespace as read at one version; never changed in place. */
export interface NamespaceSnapshot {
  version: number;
  /** Sorted by id. */
  vectors: StoredVector[];
  byId: ReadonlyMap<string, StoredVector>;
  /** Bytes of the stored JSON, for /info's indexSize. */
  bytes: number;
}

export const DEFAULT_NAMESPACE = "";

export class VectorStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #cache = new Map<string, NamespaceSnapshot>();

  constructor(redisUrl: string, prefix: string) {
    this.#redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
    this.#prefix = prefix;
  }

  /** Connects, and claims the prefix for `config` or checks that it already holds the same kind of index. */
  async open(config: IndexConfig): Promise<void> {
    await this.#redis.connect();
    const key = `${this.#prefix}config`;
    await this.#redis.set(key, JSON.stringify(config), "NX");
    const stored = indexConfigSchema.parse(JSON.parse((await this.#redis.get(key)) ?? "null"));
    if (
      stored.type !== config.type ||
      stored.dimension !== config.dimension ||
      stored.similarity !== config.similarity
    ) {
      throw new Error(
        `the key prefix "${this.#prefix}" holds a ${stored.type} index (dimension ${stored.dimension}, ${stored.similarity}): ` +
          "start with those settings, choose another key prefix, or delete that prefix's keys",
      );
    }
    await this.#redis.sadd(`${this.#prefix}namespaces`, DEFAULT_NAMESPACE);
  }

  async close(): Promise<void> {
    await this.#redis.quit();
  }

  async namespaces(): Promise<string[]> {
    return (await this.#redis.smembers(`${this.#prefix}namespaces`)).sort();
  }

  async exists(namespace: string): Promise<boolean> {
    return (
      namespace === DEFAULT_NAMESPACE || (await this.#redis.sismember(`${this.#prefix}namespaces`, namespace)) === 1
    );
  }

  async snapshot(namespace: string): Promise<NamespaceSnapshot> {
    const cached = this.#cache.get(namespace);
    const version = Number((await this.#redis.hget(`${this.#prefix}versions`, namespace)) ?? 0);
    if (cached && cached.version === version) return cached;
    const [[, at], [, hash]] = (await this.#redis
      .multi()
      .hget(`${this.#prefix}versions`, namespace)
      .hgetall(this.#vectorsKey(namespace))
      .exec()) as [[null, string | null], [null, Record<string, string>]];
    const snapshot = toSnapshot(Number(at ?? 0), hash);
    this.#cache.set(namespace, snapshot);
    return snapshot;
  }

  /** Stores (replacing) the vectors, creating the namespace if it is new. */
  async put(namespace: string, vectors: StoredVector[]): Promise<void> {
    if (vectors.length === 0) return;
    const fields = vectors.flatMap((v) => [v.id, JSON.stringify(v)]);
    await this.#write(namespace, (tx) =>
      tx.sadd(`${this.#prefix}namespaces`, namespace).hset(this.#vectorsKey(namespace), ...fields),
    );
  }

  /** Deletes the ids; returns how many existed. */
  async remove(namespace: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const replies = await this.#write(namespace, (tx) => tx.hdel(this.#vectorsKey(namespace), ...ids));
    return Number(replies[0]?.[1] ?? 0);
  }

  /** Empties the namespace; with `drop` it also stops existing. */
  async clear(namespace: string, drop = false): Promise<void> {
    await this.#write(namespace, (tx) =>
      drop
        ? tx.del(this.#vectorsKey(namespace)).srem(`${this.#prefix}namespaces`, namespace)
        : tx.del(this.#vectorsKey(namespace)),
    );
  }

  #vectorsKey(namespace: string): string {
    return `${this.#prefix}ns:${namespace}`;
  }

  /** The change and the version bump in one transaction; the counter never goes back, even for a dropped namespace. */
  async #write(namespace: string, change: (tx: ReturnType<Redis["multi"]>) => ReturnType<Redis["multi"]>) {
    const replies = await change(this.#redis.multi()).hincrby(`${this.#prefix}versions`, namespace, 1).exec();
    this.#cache.delete(namespace);
    const failure = replies?.find(([err]) => err);
    if (!replies || failure) throw failure?.[0] ?? new Error("redis aborted the write");
    return replies;
  }
}

const storedVectorSchema = z.object({
  id: z.string(),
  vector: z.array(z.number()).optional(),
  sparseVector: z.object({ indices: z.array(z.number()), values: z.array(z.number()) }).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  data: z.string().optional(),
});

function toSnapshot(version: number, hash: Record<string, string>): NamespaceSnapshot {
  let bytes = 0;
  const vectors = Object.entries(hash)
    .map(([, json]) => {
      bytes += Buffer.byteLength(json);
      return storedVectorSchema.parse(JSON.parse(json));
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { version, vectors, byId: new Map(vectors.map((v) => [v.id, v])), bytes };
}
