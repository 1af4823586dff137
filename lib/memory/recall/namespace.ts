/**
 * @module
 * One Upstash Vector namespace per bot (REDIS_KEY_PREFIX) and tenant: passages never cross bots or tenants, and an
 * uninstall drops a tenant's passages with one delete-namespace. Parts are joined with `:`, which no part may hold
 * unescaped, so one bot's namespaces never start with another bot's prefix. The client puts the namespace raw into
 * the URL path, so every character outside [A-Za-z0-9_.-] is written as ~<hex>~ (`~` itself too).
 */
import type { Platform } from "../../message.ts";

const UNSAFE = /[^A-Za-z0-9_.-]/gu;

export function recallNamespace(prefix: string, place: { platform: Platform; tenant: string }): string {
  return `${botNamespacePrefix(prefix)}${place.platform}:${escapedPart(place.tenant)}`;
}

/** Every namespace of one bot starts with this: the retention sweep finds them by it. */
export function botNamespacePrefix(prefix: string): string {
  return `${escapedPart(prefix)}:recall:`;
}

function escapedPart(part: string): string {
  return part.replace(UNSAFE, (char) => `~${char.codePointAt(0)!.toString(16)}~`);
}
