/**
 * @module
 * The bot token of an installed tenant, refreshed before it expires. With token rotation a token is refreshed
 * once it is within REFRESH_BEFORE_MS of expiring, by exactly one job at a time: the one that takes the Redis lock
 * calls the platform; the others go on with the old token while it is still valid, or wait for the new one.
 * A failed refresh keeps the old token until it expires, and is logged once per attempt.
 */
import { RedisStore } from "../redis-store.ts";
import { GiveUp, RetryLater } from "../errors.ts";
import { tokenRefreshLockKey, type Tenancy } from "../keys.ts";
import { errorMessage } from "../log.ts";
import type { Platform } from "../message.ts";
import { defineScript } from "../redis-script.ts";
import type { Services } from "../services.ts";
import * as z from "../zod.ts";
import { SealError } from "../secrets/seal.ts";
import type { Installation, RefreshedToken } from "../installation.ts";
import type { Installations } from "./installations.ts";

/** A token is read from the stored installations and refreshed under a Redis lock. */
export type TokenServices = Services & { installations: Installations; tokenLocks: TokenLocks };

/** Refresh this long before expiry (the 5 minutes; Slack's tokens live 12 hours). */
const REFRESH_BEFORE_MS = 5 * 60_000;
/** Longer than a refresh call can take (the Web API call times out after 10 s). */
const LOCK_MS = 15_000;
const WAIT_STEP_MS = 100;

/** Keys: the `lock`. Arguments: its `holder`. The lock goes only while this job still holds it. */
const RELEASE = defineScript({
  keys: { lock: "key" },
  args: z.object({ holder: z.string() }),
  result: z.number(),
  lua: `
if redis.call('GET', K.lock) == A.holder then return redis.call('DEL', K.lock) end
return 0`,
});

/** Held while one job refreshes a tenant's token (`lock:refresh:` in lib/keys.ts), by a random holder. */
export class TokenLocks extends RedisStore {
  /** True when `holder` took the lock (for LOCK_MS at most). */
  async take(where: Tenancy, holder: string): Promise<boolean> {
    return (await this.redis.set(tokenRefreshLockKey(this.prefix, where), holder, { nx: true, px: LOCK_MS })) !== null;
  }

  /** Lets go of the lock if `holder` still holds it; a failure only leaves it to expire. */
  async release(where: Tenancy, holder: string): Promise<void> {
    await RELEASE.run(this.redis, { lock: tokenRefreshLockKey(this.prefix, where) }, { holder }).catch(() => undefined);
  }
}

export type Refresh = (refreshToken: string) => Promise<RefreshedToken>;

export async function installedToken(
  rt: TokenServices,
  platform: Platform,
  tenant: string,
  refresh: Refresh,
): Promise<string> {
  const deadline = rt.now() + LOCK_MS;
  for (;;) {
    const installation = await rt.installations.forTenant(platform, tenant).catch((err: unknown) => {
      // Retrying cannot open it: the key that sealed it is missing from the settings.
      if (err instanceof SealError) throw new GiveUp(`${err.message}`, "installation_unreadable");
      throw err;
    });
    if (!installation) throw new GiveUp(`the app is not installed in ${platform} tenant ${tenant}`, "not_installed");
    const { expiresAt, refreshToken } = installation;
    const now = rt.now();
    if (expiresAt === undefined || !refreshToken || expiresAt - now > REFRESH_BEFORE_MS) return installation.botToken;
    const lock = { platform, tenant: installation.tenant };
    const holder = crypto.randomUUID();
    if (await rt.tokenLocks.take(lock, holder)) {
      return refreshUnderLock(rt, platform, installation, refresh).finally(() => rt.tokenLocks.release(lock, holder));
    }
    // Another job is refreshing: its old token still works until it expires, else wait for the new one.
    if (expiresAt > now) return installation.botToken;
    if (now > deadline) throw new RetryLater("another job is refreshing the token", 1);
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
}

async function refreshUnderLock(
  rt: TokenServices,
  platform: Platform,
  installation: Installation,
  refresh: Refresh,
): Promise<string> {
  // Read again under the lock: the job that held it before may have refreshed already, or an uninstall removed it.
  const where = { platform, tenant: installation.tenant };
  const read = await rt.installations.read(where);
  if (!read) throw new GiveUp(`the app is not installed in ${platform} tenant ${installation.tenant}`, "not_installed");
  const current = read.installation;
  if (current.expiresAt !== undefined && current.expiresAt - rt.now() > REFRESH_BEFORE_MS) return current.botToken;
  let refreshed: RefreshedToken;
  try {
    refreshed = await refresh(current.refreshToken!);
  } catch (err) {
    rt.log.warn("token_refresh_failed", { platform, tenant: current.tenant, error: errorMessage(err) });
    if (current.expiresAt! > rt.now()) return current.botToken;
    throw err;
  }
  // Written only over the installation it refreshed: never back after an uninstall's cleanup, nor over a reinstall.
  if (!(await rt.installations.replace(platform, read, { ...current, ...refreshed }))) {
    rt.log.warn("token_refresh_superseded", { platform, tenant: current.tenant });
    const now = await rt.installations.get(where);
    if (!now) throw new GiveUp(`the app was uninstalled from ${platform} tenant ${current.tenant}`, "not_installed");
    return now.botToken;
  }
  rt.log.info("token_refreshed", { platform, tenant: current.tenant });
  return refreshed.botToken;
}
