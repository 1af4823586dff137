/**
 * @module
 * The recall index of a runtime (one per Worker env, like the fact store), or null when recall is off: switched
 * off with RECALL_ENABLED, or no Vector index configured. Everything recall does starts here, so "off" is one check.
 */
import { recallIndexSettings } from "../../config.ts";
import type { Services } from "../../services.ts";
import { RecallIndex } from "./client.ts";

const indexes = new WeakMap<Services, RecallIndex>();

export function recallIndexFor(rt: Services): RecallIndex | null {
  const settings = recallIndexSettings(rt.settings);
  if (!settings) return null;
  let index = indexes.get(rt);
  if (!index) {
    index = new RecallIndex(settings);
    indexes.set(rt, index);
  }
  return index;
}
