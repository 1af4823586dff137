/**
 * @module
 * Where facts about a person live: one key per bot (prefix), tenant and person, so facts never cross bots or
 * tenants. The same `|` join as the conversation keys (lib/conversation/keys.ts).
 */
import type { Platform } from "../message.ts";

export function factsKey(prefix: string, place: { platform: Platform; tenant: string }, personId: string): string {
  return `${prefix}:facts:${place.platform}|${place.tenant}|${personId}`;
}
