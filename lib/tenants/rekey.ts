/**
 * @module
 * After TOKEN_ENCRYPTION_KEY changes (the old key moved to TOKEN_ENCRYPTION_PREVIOUS_KEYS), every stored
 * installation is sealed anew under the new key, so that the old key can be dropped; values sealed before values
 * were bound to their tenant are sealed anew, bound, under any key. A value that is not its key's tenant's
 * installation is left as it is and counted (`refused`): it never opens for that tenant. Each value is replaced
 * only if it is still the one read (a refresh meanwhile wrote a newer one, already sealed as it should be).
 */
import type { Redis } from "@upstash/redis";
import { defineScript, luaFlag, type ScriptClient } from "../redis-script.ts";
import * as z from "../zod.ts";
import { installationKeyPattern, installationTenancy } from "../keys.ts";
import type { Sealer } from "../secrets/seal.ts";
import { AnotherTenantsInstallation, openInstallation, sealInstallation } from "./installations.ts";

/** Keys: the `installation`. Arguments: the sealed value read (`expected`), the `fresh` one. True when replaced. */
const REPLACE_IF_UNCHANGED = defineScript({
  keys: { installation: "key" },
  args: z.object({ expected: z.string(), fresh: z.string() }),
  result: luaFlag,
  lua: `
if redis.call('GET', K.installation) == A.expected then redis.call('SET', K.installation, A.fresh) return 1 end
return 0`,
});

export async function resealInstallations(
  redis: Pick<Redis, "scan" | "get"> & ScriptClient,
  prefix: string,
  sealer: Sealer,
): Promise<{ seen: number; resealed: number; refused: number }> {
  const match = installationKeyPattern(prefix);
  let cursor = "0";
  const counts = { seen: 0, resealed: 0, refused: 0 };
  do {
    const [next, keys] = await redis.scan(cursor, { match, count: 500 });
    for (const key of keys) {
      const where = installationTenancy(prefix, key);
      const sealed = await redis.get<string>(key);
      if (where === null || sealed === null) continue;
      counts.seen += 1;
      if (await sealer.isCurrent(sealed)) continue;
      const installation = await openInstallation(sealer, where, sealed).catch((err: unknown) => {
        if (err instanceof AnotherTenantsInstallation) return null;
        throw err;
      });
      if (installation === null) {
        counts.refused += 1;
        continue;
      }
      const fresh = await sealInstallation(sealer, where, installation);
      if (await REPLACE_IF_UNCHANGED.run(redis, { installation: key }, { expected: sealed, fresh }))
        counts.resealed += 1;
    }
    cursor = String(next);
  } while (cursor !== "0");
  return counts;
}
