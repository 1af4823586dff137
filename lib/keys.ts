/**
 * @module
 * Every Redis key of the project, built here (and in lib/keys/, which this module re-exports) and nowhere else. Each
 * key starts with the bot's prefix (REDIS_KEY_PREFIX, so bots sharing a database never see each other's keys) and
 * carries the platform and tenant (nothing is shared across tenants). Parts are joined with `|`, which never appears
 * in the platform ids keys are built from, so two different places never share a key. A new key is its builder here
 * (or in lib/keys/ beside its feature's others), one method of the store that reads and writes it (lib/stores.ts),
 * and its row in docs/data-kept.md (what it holds, how long, who reads it).
 * `<place>` is `platform|tenant|channel|thread` (thread empty outside threads), `<channel>` is
 * `platform|tenant|channel`, `<person>` is `platform|tenant|author id`.
 */
import type { ConversationKey } from "./message.ts";
import {
  channelId,
  type ConversationKeys,
  inTenant,
  type LimitName,
  placeId,
  SEP,
  type Tenancy,
  tenantId,
} from "./keys/ids.ts";

export * from "./keys/actions.ts";
export * from "./keys/ids.ts";

/** The keys of one conversation; they always expire together. */
export function conversationKeys(prefix: string, key: ConversationKey): ConversationKeys {
  return conversationKeysAt(prefix, placeId(key));
}

/** Marks a delivered platform message as seen (retries, and Slack's app_mention + message pair of one post). */
export const seenKey = (prefix: string, where: Tenancy, messageId: string): string =>
  `${prefix}:seen:${inTenant(where, messageId)}`;

/** One trigger's answer: "done" once answered or handled, else the draft of what is being posted. */
export const replyKey = (prefix: string, where: Tenancy, triggerId: string): string =>
  `${prefix}:reply:${inTenant(where, triggerId)}`;

/** Held, with a short TTL, by the one attempt of a job that works on a trigger's answer. */
export const claimKey = (prefix: string, where: Tenancy, triggerId: string): string =>
  `${prefix}:claim:${inTenant(where, triggerId)}`;

/** Set by the webhook once its working sign is up (lib/jobs/working-sign.ts): the job only takes it down. */
export const signKey = (prefix: string, where: Tenancy, triggerId: string): string =>
  `${prefix}:sign:${inTenant(where, triggerId)}`;

export const factsKey = (prefix: string, where: Tenancy, person: string): string =>
  `${prefix}:facts:${inTenant(where, person)}`;

/**
 * "Forgotten before T": when the person last asked to be forgotten (kept for good, lib/memory/forgotten.ts). No
 * read of a place's history, memory job or recall index brings back what they wrote before then.
 */
export const forgottenKey = (prefix: string, where: Tenancy, person: string): string =>
  `${prefix}:forgotten:${inTenant(where, person)}`;

/** Who can read a place whose messages did not say (a Discord server channel), as the platform told a job. */
export const visibilityKey = (prefix: string, key: ConversationKey): string => `${prefix}:visibility:${placeId(key)}`;

/** The platform refused to read a place's history: logged once per hour (lib/jobs/backfill.ts). */
export const historyRefusedKey = (prefix: string, key: ConversationKey): string =>
  `${prefix}:history-refused:${placeId(key)}`;

/** A catch-up's progress across its steps (lib/catch-up/pages.ts): pages read, chunks summarized. */
export function catchUpKey(prefix: string, key: ConversationKey, triggerId: string): string {
  return `${prefix}:catchup:${placeId(key)}:${triggerId}`;
}

/** A channel's last messages, kept where the platform cannot be asked for them (IngestOptions.keepHistory). */
export const keptKey = (prefix: string, key: ConversationKey): string => `${prefix}:kept:${inTenant(key, key.channel)}`;

export const placeSettingsKey = (prefix: string, key: ConversationKey) => `${prefix}:settings:${channelId(key)}`;

/** The kept messages of the channel of a place (`placeId`, as a person's index of places names it). */
export function keptKeyOfPlace(prefix: string, place: string): string {
  return `${prefix}:kept:${place.split(SEP).slice(0, 3).join(SEP)}`;
}

/** The bot told a conversation once that its model cannot see images. */
export function imagesUnseenKey(prefix: string, key: ConversationKey, conversationId: string): string {
  return `${prefix}:unseen:${placeId(key)}${SEP}${conversationId}`;
}

/** The places (`placeId`) of the live conversations a person spoke in: "forget me" erases there and nowhere else. */
export function spokeKey(prefix: string, where: Tenancy, person: string): string {
  return `${prefix}:spoke:${inTenant(where, person)}`;
}

/** The keys of the conversation at a place `spokeKey` names. */
export function conversationKeysAt(prefix: string, place: string): ConversationKeys {
  const base = `${prefix}:conv:${place}`;
  return { state: `${base}:state`, log: `${base}:log`, answers: `${base}:answers` };
}

/** A person's "forget me" requests in the window (a set of trigger ids), and that they were told of the limit. */
export function forgetLimitKeys(prefix: string, person: string): { requests: string; told: string } {
  return { requests: `${prefix}:limit:forget:${person}`, told: `${prefix}:limit:forget-told:${person}` };
}

/** Install flows started by one client (IPv4 address or IPv6 /64, as a pseudonym) and by all, in the window. */
export function installStartKeys(prefix: string, client: string): { client: string; all: string } {
  return { client: `${prefix}:limit:install:${client}`, all: `${prefix}:limit:install:all` };
}

const globEscape = (text: string): string => text.replace(/[*?[\]\\]/g, (ch) => `\\${ch}`);

/** Set while the person asked not to be messaged (SMS STOP, or Twilio's 21610); never expires. */
export function optOutKey(prefix: string, where: Tenancy, person: string): string {
  return `${prefix}:optout:${inTenant(where, person)}`;
}

/** The prefix of one limit's fixed-window counters (lib/limits/fixed-window.ts). */
export const rateLimitPrefix = (prefix: string, limit: LimitName): string => `${prefix}:limit:${limit}`;

/** The admin view's attempts (lib/limits/admin-attempts.ts): one client's, all clients', the client's trusted mark. */
export function adminLimitKeys(prefix: string, client: string): { client: string; all: string; trusted: string } {
  const limit = `${prefix}:limit:admin`;
  return { client: `${limit}:${client}`, all: `${limit}:all`, trusted: `${prefix}:admin:trusted:${client}` };
}

/** Taken by the first job over a person's limit, so that the person is told once per window. */
export const rateLimitNoticeKey = (prefix: string, person: string): string => `${prefix}:limit:told:${person}`;

/** The cron's retention sweep of recall passages: the last namespace it swept, or that a whole pass is done. */
export const recallSweepKey = (prefix: string): string => `${prefix}:recall:sweep`;

/** An OAuth installation of the app in one tenant (a Slack workspace or org). */
export function installationKey(prefix: string, where: Tenancy): string {
  return `${prefix}:install:${where.platform}${SEP}${where.tenant}`;
}

/** The platform and tenant an installation's key (`installationKey`) names; null for any other key. */
export function installationTenancy(prefix: string, key: string): { platform: string; tenant: string } | null {
  const start = `${prefix}:install:`;
  if (!key.startsWith(start)) return null;
  const [platform, tenant, ...rest] = key.slice(start.length).split(SEP);
  return platform && tenant && rest.length === 0 ? { platform, tenant } : null;
}

/** The glob of every installation of the bot (re-encrypting them after a key rotation). */
export const installationKeyPattern = (prefix: string): string => `${globEscape(prefix)}:install:*`;

/** Whether `key` is an installation (of any tenant). */
export const isInstallationKey = (prefix: string, key: string): boolean => key.startsWith(`${prefix}:install:`);

/** Held while one job refreshes an installation's token, so that concurrent jobs make one refresh call. */
export function tokenRefreshLockKey(prefix: string, where: Tenancy): string {
  return `${prefix}:lock:refresh:${where.platform}${SEP}${where.tenant}`;
}

/** A day's count of tokens, and the mark that its owner was told the allowance is used. */
type UsedAndTold = { used: string; told: string };

/** Model tokens a tenant used on one UTC day (`YYYY-MM-DD`), and whether it was told its allowance is used. */
export function tenantBudgetKeys(prefix: string, where: Tenancy, day: string): UsedAndTold {
  const id = inTenant(where, day);
  return { used: `${prefix}:budget:${id}`, told: `${prefix}:budget:told:${id}` };
}

/** One person's share of a tenant's day (PERSON_DAILY_TOKEN_SHARE), and whether they were told it is used. */
export function personBudgetKeys(prefix: string, where: Tenancy, person: string, day: string): UsedAndTold {
  const id = [inTenant(where, person), day].join(SEP);
  return { used: `${prefix}:budget:person:${id}`, told: `${prefix}:budget:person-told:${id}` };
}

/** A pending install flow's `state`; not a tenant's yet (the workspace is known only once it is approved). */
export const oauthStateKey = (prefix: string, nonce: string): string => `${prefix}:oauth-state:${nonce}`;

/**
 * Every key of one tenant names `<platform>|<tenant>` right after a `:`, followed by `|` or ending there. The
 * glob finds them (and, for a tenant id that begins another's, a few of the other's, which `isTenantKey` drops);
 * ids hold no `|`, so no other tenant's key passes both.
 */
export function tenantKeyPattern(prefix: string, where: Tenancy): string {
  return `${globEscape(prefix)}:*:${globEscape(tenantId(where))}*`;
}

export function isTenantKey(prefix: string, where: Tenancy, key: string): boolean {
  const id = tenantId(where);
  // `<id>:` too: the workspaces of a Slack org (`E…:T…`) go with an org-wide install.
  return (
    key.startsWith(`${prefix}:`) && (key.includes(`:${id}${SEP}`) || key.includes(`:${id}:`) || key.endsWith(`:${id}`))
  );
}

/** Every key of one channel (`<channel>` right after a `:`, then `|` or the end): the bot removed from it. */
export function channelKeyPattern(prefix: string, key: ConversationKey): string {
  return `${globEscape(prefix)}:*:${globEscape(channelId(key))}*`;
}

export function isChannelKey(prefix: string, key: ConversationKey, found: string): boolean {
  const id = channelId(key);
  return found.startsWith(`${prefix}:`) && (found.includes(`:${id}${SEP}`) || found.endsWith(`:${id}`));
}
