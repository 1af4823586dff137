/**
 * @module
 * What everything of one Worker env shares: the settings, the logger, the clock and what the encryption key keys.
 * The runtime (lib/runtime.ts) is these plus the stores (lib/stores.ts: the only holders of the Redis client), the
 * queue, the model and the platforms; what lies below the runtime takes only what it needs of them.
 */
import type { Settings } from "./config.ts";
import type { Logger } from "./log.ts";
import type { Pseudonyms } from "./secrets/pseudonym.ts";
import type { Sealer } from "./secrets/seal.ts";

export interface Services {
  settings: Settings;
  log: Logger;
  secrets: RuntimeSecrets;
  /** Milliseconds since the epoch. */
  now(): number;
}

/**
 * What TOKEN_ENCRYPTION_KEY keys: the sealed personal fields of jobs, the pseudonyms of personal ids, install states.
 */
export interface RuntimeSecrets {
  jobs: Sealer;
  pseudonyms: Pseudonyms;
  /** The pseudonyms HTTP tools get of personal ids (lib/tools/http-tool.ts), under a sub-key of their own. */
  toolPseudonyms: Pseudonyms;
  oauthState: Sealer;
}
