/**
 * @module
 * After TOKEN_ENCRYPTION_KEY changes (the old key moved to TOKEN_ENCRYPTION_PREVIOUS_KEYS), every stored
 * installation is sealed anew under the new key, so that the old key can be dropped. Each value is replaced only
 * if it is still the one read (a refresh meanwhile wrote a newer one, already under the new key).
 */
import type { Redis } from "@upstash/redis";
import { installationKeyPattern } from "../keys.ts";
import type { Sealer } from "../secrets/seal.ts";

const REPLACE_IF_UNCHANGED = `#!lua flags=allow-key-locking
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2]) return 1 end
return 0`;

export async function resealInstallations(redis: Pick<Redis, "scan" | "get" | "eval">, prefix: string, sealer: Sealer): Promise<{ seen: number; resealed: number }> {
  const match = installationKeyPattern(prefix);
  let cursor = "0";
  let seen = 0;
  let resealed = 0;
  do {
    const [next, keys] = await redis.scan(cursor, { match, count: 500 });
    for (const key of keys) {
      const sealed = await redis.get<string>(key);
      if (sealed === null) continue;
      seen += 1;
      const fresh = await sealer.reseal(sealed);
      if (fresh !== null && Number(await redis.eval(REPLACE_IF_UNCHANGED, [key], [sealed, fresh])) === 1) resealed += 1;
    }
    cursor = String(next);
  } while (cursor !== "0");
  return { seen, resealed };
}
