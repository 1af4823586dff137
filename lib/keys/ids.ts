/**
 * @module
 * The parts every key is built from (lib/keys.ts, which re-exports them): the ids of a place, a person, a channel
 * and a tenant, joined with `|`, which never appears in the platform ids they are built from.
 */
import type { ConversationKey, Platform } from "../message.ts";

/** Where a key's owner lives: the platform and tenant of a conversation, a person or a message. */
export type Tenancy = Pick<ConversationKey, "platform" | "tenant">;

export type ConversationKeys = { state: string; log: string; answers: string };

/** The fixed-window limits (lib/limits/): answers per person, judge calls, a platform's calls, unprompted, rescues. */
export type LimitName = "reply" | "judge" | "api" | "initiative" | "rescue";

export const SEP = "|";

/** One conversation place: also the QStash flow-control key and the judge cap's identifier. */
export function placeId(key: ConversationKey): string {
  return [key.platform, key.tenant, key.channel, key.thread ?? ""].join(SEP);
}

/** One person of one tenant: the reply rate limit's identifier. */
export function personId(where: Tenancy, authorId: string): string {
  return [where.platform, where.tenant, authorId].join(SEP);
}

/** `<platform>|<tenant>|<id>`: messages, triggers, facts and opt-outs are unique within a tenant. */
export function inTenant(where: { platform: Platform; tenant: string }, id: string): string {
  return [where.platform, where.tenant, id].join(SEP);
}

/** `<platform>|<tenant>|<channel>`: a place's own settings (`settings:`), and its unprompted answers' count. */
export const channelId = (key: ConversationKey): string => inTenant(key, key.channel);

/** `<platform>|<tenant>`: what a tenant's sealed values are bound to (lib/secrets/seal.ts). */
export function tenantId(where: { platform: string; tenant: string }): string {
  return `${where.platform}${SEP}${where.tenant}`;
}
