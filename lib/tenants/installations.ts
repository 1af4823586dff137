/**
 * @module
 * The installations of the app, one sealed JSON value per tenant (AES-GCM under TOKEN_ENCRYPTION_KEY's
 * `stored-token` sub-key, which names its key id, so that a rotated key still opens older values).
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { installationKey, type Tenancy } from "../keys.ts";
import type { Platform } from "../message.ts";
import type { Sealer } from "../secrets/seal.ts";
import { installationSchema, type Installation } from "../installation.ts";

export class Installations {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #sealer: Sealer;

  constructor(redis: Redis, prefix: string, sealer: Sealer) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#sealer = sealer;
  }

  async get(where: Tenancy): Promise<Installation | null> {
    const sealed = await this.#redis.get<string>(installationKey(this.#prefix, where));
    if (sealed === null) return null;
    return installationSchema.parse(JSON.parse(await this.#sealer.open(sealed)));
  }

  /** The installation that acts for `tenant`: its own, or for a workspace of a Slack org (`E…:T…`), the org's. */
  async forTenant(platform: Platform, tenant: string): Promise<Installation | null> {
    const own = await this.get({ platform, tenant });
    const org = tenant.includes(":") ? tenant.slice(0, tenant.indexOf(":")) : undefined;
    return own ?? (org ? this.get({ platform, tenant: org }) : null);
  }

  async put(platform: Platform, installation: Installation): Promise<void> {
    const sealed = await this.#sealer.seal(JSON.stringify(installation));
    await this.#redis.set(installationKey(this.#prefix, { platform, tenant: installation.tenant }), sealed);
  }
}
