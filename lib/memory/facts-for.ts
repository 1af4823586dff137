/**
 * @module
 * The fact store of a runtime (one per Worker env, like the conversation store), built from its settings.
 */
import type { Services } from "../services.ts";
import { FactStore } from "./fact-store.ts";

const SECONDS_PER_DAY = 86_400;
const stores = new WeakMap<Services, FactStore>();

export function factStoreFor(rt: Services): FactStore {
  let store = stores.get(rt);
  if (!store) {
    store = new FactStore(rt.redis, {
      prefix: rt.settings.REDIS_KEY_PREFIX,
      perPerson: rt.settings.FACTS_PER_PERSON,
      ttlSeconds: rt.settings.FACTS_TTL_DAYS * SECONDS_PER_DAY,
    });
    stores.set(rt, store);
  }
  return store;
}
