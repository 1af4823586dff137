/**
 * @module
 * The installations of the app, one sealed JSON value per tenant (AES-GCM under TOKEN_ENCRYPTION_KEY's
 * `stored-token` sub-key, which names its key id, so that a rotated key still opens older values). Each value is
 * bound to its tenant, and opened only for the tenant it names: a value copied to another tenant's key never acts
 * for that tenant.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { installationKey, tenantId, type Tenancy } from "../keys.ts";
import type { Platform } from "../message.ts";
import { SealError, type Sealer } from "../secrets/seal.ts";
import { installationSchema, type Installation } from "./installation.ts";

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
    const sealed = await this.#redis.get<string>(installationKey(this.#prefix, where));
    return sealed === null ? null : openInstallation(this.#sealer, where, sealed);
  }

  /** The installation that acts for `tenant`: its own, or for a workspace of a Slack org (`E…:T…`), the org's. */
  async forTenant(platform: Platform, tenant: string): Promise<Installation | null> {
    const own = await this.get({ platform, tenant });
    const org = tenant.includes(":") ? tenant.slice(0, tenant.indexOf(":")) : undefined;
    return own ?? (org ? this.get({ platform, tenant: org }) : null);
  }

  async put(platform: Platform, installation: Installation): Promise<void> {
    const where = { platform, tenant: installation.tenant };
    await this.#redis.set(installationKey(this.#prefix, where), await sealInstallation(this.#sealer, where, installation));
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
  const installation = installationSchema.parse(JSON.parse(await sealer.open(sealed, tenantId(where), { unbound: true })));
  if (installation.tenant !== where.tenant) throw new AnotherTenantsInstallation();
  return installation;
}
