/**
 * @module
 * Recall of a runtime (built once with its other stores, lib/stores.ts): its Vector index and this bot's
 * namespaces, or null when recall is off: switched off with RECALL_ENABLED, or no Vector index configured.
 * Everything recall does starts here, so "off" is one check.
 */
import { recallIndexSettings, type Settings } from "../../config.ts";
import type { Tenancy } from "../../keys.ts";
import { RecallIndex } from "./client.ts";
import { recallNamespace } from "./namespace.ts";

export interface Recall {
  index: RecallIndex;
  /** The tenant's namespace of this bot (./namespace.ts). */
  namespace(where: Tenancy): string;
  /** REDIS_KEY_PREFIX, which names this bot's namespaces: the retention sweep finds them by it. */
  keyPrefix: string;
}

/** `keyPrefix`: REDIS_KEY_PREFIX (lib/stores.ts). */
export function recallFor(settings: Settings, keyPrefix: string): Recall | null {
  const index = recallIndexSettings(settings);
  if (!index) return null;
  return { index: new RecallIndex(index), namespace: (where) => recallNamespace(keyPrefix, where), keyPrefix };
}
