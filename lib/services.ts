/**
 * @module
 * What the stores of one Worker env share: the settings, the Redis client, the logger, the clock and what the
 * encryption key keys. The runtime (lib/runtime.ts) is these plus the conversation store, the queue, the model and
 * the installations; the stores take only this, so that nothing below the runtime depends on it.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import type { Settings } from "./config.ts";
import type { Logger } from "./log.ts";
import type { Pseudonyms } from "./secrets/pseudonym.ts";
import type { Sealer } from "./secrets/seal.ts";

export interface Services {
  settings: Settings;
  redis: Redis;
  log: Logger;
  secrets: RuntimeSecrets;
  /** Milliseconds since the epoch. */
  now(): number;
}

/** What TOKEN_ENCRYPTION_KEY keys: the sealed personal fields of jobs, the pseudonyms of personal ids, install states. */
export interface RuntimeSecrets {
  jobs: Sealer;
  pseudonyms: Pseudonyms;
  oauthState: Sealer;
}
