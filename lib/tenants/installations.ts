/**
 * @module
 * The installations of the app, one sealed JSON value per tenant (AES-GCM under TOKEN_ENCRYPTION_KEY's
 * `stored-token` sub-key, which names its key id, so that a rotated key still opens older values). Each value is
 * bound to its tenant, and opened only for the tenant it names: a value copied to another tenant's key never acts
 * for that tenant. A value is replaced or deleted only while it is still the one read (compare-and-set on the
 * sealed text, in one script): a token refresh never writes an installation back after an uninstall's cleanup
 * deleted it, nor over a reinstall.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { defineScript, luaFlag } from "../redis-script.ts";
import * as z from "../zod.ts";
import { installationKey, tenantId, type Tenancy } from "../keys.ts";
import type { Platform } from "../message.ts";
import { SealError, type Sealer } from "../secrets/seal.ts";
import { installationSchema, type Installation } from "../installation.ts";

/** Keys: the `installation`. Arguments: the sealed value read (`expected`), the `next` ('' deletes). True when done. */
const SET_IF_UNCHANGED = defineScript({
  keys: { installation: "key" },
  args: z.object({ expected: z.string(), next: z.string() }),
  result: luaFlag,
  lua: `
if redis.call('GET', K.installation) ~= A.expected then return 0 end
if A.next == '' then redis.call('DEL', K.installation) else redis.call('SET', K.installation, A.next) end
return 1`,
});

/** An installation as read, with the sealed text that a later compare-and-set compares against. */
export interface ReadInstallation {
  installation: Installation;
  sealed: string;
}

/** The tenant an installation is stored for (as its key names it: `npm run tokens:rotate-key` reads keys). */
type StoredFor = { platform: string; tenant: string };

export class Installations {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #sealer: Sealer;

  constructor(redis: Redis, prefix: string, sealer: Sealer) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#sealer = sealer;
  }

  /** Throws SealError when the stored value cannot be opened, or is not `where`'s. */
  async get(where: Tenancy): Promise<Installation | null> {
    return (await this.read(where))?.installation ?? null;
  }

  async read(where: Tenancy): Promise<ReadInstallation | null> {
    const sealed = await this.#redis.get<string>(installationKey(this.#prefix, where));
    if (sealed === null) return null;
    return { installation: await openInstallation(this.#sealer, where, sealed), sealed };
  }

  /** The installation that acts for `tenant`: its own, or for a workspace of a Slack org (`E…:T…`), the org's. */
  async forTenant(platform: Platform, tenant: string): Promise<Installation | null> {
    const own = await this.get({ platform, tenant });
    const org = tenant.includes(":") ? tenant.slice(0, tenant.indexOf(":")) : undefined;
    return own ?? (org ? this.get({ platform, tenant: org }) : null);
  }

  /** Stores a new install (a reinstall replaces the earlier one). */
  async put(platform: Platform, installation: Installation): Promise<void> {
    const where = { platform, tenant: installation.tenant };
    await this.#redis.set(
      installationKey(this.#prefix, where),
      await sealInstallation(this.#sealer, where, installation),
    );
  }

  /** Replaces `read` with `next` unless it changed or went meanwhile; false when it did (nothing written). */
  async replace(platform: Platform, read: ReadInstallation, next: Installation): Promise<boolean> {
    const where = { platform, tenant: read.installation.tenant };
    return this.#setIfUnchanged(where, read.sealed, await sealInstallation(this.#sealer, where, next));
  }

  /** Deletes the tenant's installation if it is still `read` (a reinstall meanwhile stays). */
  async delete(where: Tenancy, read: ReadInstallation): Promise<boolean> {
    return this.#setIfUnchanged(where, read.sealed, "");
  }

  async #setIfUnchanged(where: Tenancy, expected: string, next: string): Promise<boolean> {
    return SET_IF_UNCHANGED.run(
      this.#redis,
      { installation: installationKey(this.#prefix, where) },
      { expected, next },
    );
  }
}

/** A stored installation that names another tenant than its key's: never used for the key's tenant. */
export class AnotherTenantsInstallation extends SealError {
  constructor() {
    super("it is another tenant's installation");
  }
}

export function sealInstallation(sealer: Sealer, where: StoredFor, installation: Installation): Promise<string> {
  return sealer.seal(JSON.stringify(installation), tenantId(where));
}

/**
 * The installation `sealed` holds for `where`. Values sealed before they were bound (v1) open too: the tenant the
 * installation names must then be `where`'s (`npm run tokens:rotate-key` seals them anew, bound).
 */
export async function openInstallation(sealer: Sealer, where: StoredFor, sealed: string): Promise<Installation> {
  const installation = installationSchema.parse(
    JSON.parse(await sealer.open(sealed, tenantId(where), { unbound: true })),
  );
  if (installation.tenant !== where.tenant) throw new AnotherTenantsInstallation();
  return installation;
}
