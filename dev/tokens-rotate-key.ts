/**
 * @module
 * `npm run tokens:rotate-key`: re-encrypts every stored installation under TOKEN_ENCRYPTION_KEY, after a key
 * rotation (the old key in TOKEN_ENCRYPTION_PREVIOUS_KEYS). Run with the environment's settings exported:
 *   UPSTASH_REDIS_REST_URL=… UPSTASH_REDIS_REST_TOKEN=… REDIS_KEY_PREFIX=… \
 *   TOKEN_ENCRYPTION_KEY=<new> TOKEN_ENCRYPTION_PREVIOUS_KEYS=<old> npm run tokens:rotate-key
 * Prints how many installations it read and re-encrypted; never a token.
 */
import { Redis } from "@upstash/redis";
import { Keyring } from "../lib/secrets/keyring.ts";
import { Sealer } from "../lib/secrets/seal.ts";
import { resealInstallations } from "../lib/tenants/rekey.ts";

const env = process.env;
const missing = ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "TOKEN_ENCRYPTION_KEY"].filter((name) => !env[name]);
if (missing.length > 0) {
  console.error(`set ${missing.join(", ")} (and TOKEN_ENCRYPTION_PREVIOUS_KEYS, REDIS_KEY_PREFIX) to the environment's values`);
  process.exit(1);
}
const previous = (env.TOKEN_ENCRYPTION_PREVIOUS_KEYS ?? "").split(",").map((k) => k.trim()).filter(Boolean);
const sealer = new Sealer(new Keyring(env.TOKEN_ENCRYPTION_KEY!, previous), "stored-token");
const redis = new Redis({ url: env.UPSTASH_REDIS_REST_URL!, token: env.UPSTASH_REDIS_REST_TOKEN! });
const { seen, resealed } = await resealInstallations(redis, env.REDIS_KEY_PREFIX || "parley", sealer);
console.log(`installations: ${seen} read, ${resealed} re-encrypted under the current key`);
