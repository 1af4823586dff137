/**
 * @module
 * The OAuth `state` of an install flow: signed, single-use, short-lived and bound to the browser that started it.
 * The state is a nonce sealed with AES-GCM (authenticated: a forged or altered state does not open); the nonce is
 * kept in Redis for STATE_TTL_SECONDS with the hash of a random cookie set on the same redirect, and taken with
 * GETDEL, so a replayed state finds nothing and a state carried to another browser lacks the cookie.
 * Starting a flow needs no account, so it is capped: CLIENT_STARTS per client (lib/limits/client-address.ts) and
 * ALL_STARTS from everywhere per STATE_TTL_SECONDS. A refused start writes nothing, so pending states and their
 * counters stay below about twice ALL_STARTS keys however many addresses ask.
 */

import { bytesToBase64url } from "../base64.ts";
import { constantTimeEqual, sha256Hex } from "../crypto.ts";
import { installStartKeys, oauthStateKey } from "../keys.ts";
import { clientId } from "../limits/client-address.ts";
import { defineScript } from "../redis-script.ts";
import { RedisStore } from "../redis-store.ts";
import type { Services } from "../services.ts";
import * as z from "../zod.ts";

/** Slack's own codes last ten minutes; an install takes a person well under that. */
export const STATE_TTL_SECONDS = 600;
export const STATE_COOKIE = "parley_install";
/** A person may start over a few times; more from one client in ten minutes is not a person installing. */
const CLIENT_STARTS = 10;
/** Far more installs than any app gets in ten minutes; a flood from many addresses stops here. */
const ALL_STARTS = 500;

/**
 * Keys: the `client`'s starts, `all` starts, the new `state`. Arguments: the client's `allowance`, the
 * `allowanceOfAll`, the `windowMs` (from the first start), the state's `value` and its `ttl` (s). Returns 0 when
 * the state was written, else the ms until the window that refused it ends. Over the allowance of all, nothing is
 * written, not even a count.
 */
const START = defineScript({
  keys: { client: "key", all: "key", state: "key" },
  args: z.object({
    allowance: z.number(),
    allowanceOfAll: z.number(),
    windowMs: z.number(),
    value: z.string(),
    ttl: z.number(),
  }),
  result: z.number(),
  lua: `
local all = tonumber(redis.call('GET', K.all) or '0')
if all >= A.allowanceOfAll then return math.max(1, redis.call('PTTL', K.all)) end
local mine = redis.call('INCR', K.client)
if mine == 1 then redis.call('PEXPIRE', K.client, A.windowMs) end
if mine > A.allowance then return math.max(1, redis.call('PTTL', K.client)) end
if redis.call('INCR', K.all) == 1 then redis.call('PEXPIRE', K.all, A.windowMs) end
redis.call('SET', K.state, A.value, 'EX', A.ttl)
return 0
`,
});

export type StateCheck = "ok" | "forged" | "expired_or_used" | "other_browser";

/** The pending install flows' states and the counts of their starts (`oauth-state:`, `limit:install:`). */
export class InstallStates extends RedisStore {
  /** Counts a start by `client` and keeps `value` under `nonce`; 0 when kept, else ms until a start may be made. */
  start(client: string, nonce: string, value: string): Promise<number> {
    const counts = installStartKeys(this.prefix, client);
    return START.run(
      this.redis,
      { client: counts.client, all: counts.all, state: oauthStateKey(this.prefix, nonce) },
      {
        allowance: CLIENT_STARTS,
        allowanceOfAll: ALL_STARTS,
        windowMs: STATE_TTL_SECONDS * 1000,
        value,
        ttl: STATE_TTL_SECONDS,
      },
    );
  }

  /** The value kept under `nonce`, taken (GETDEL): a state never works twice. */
  async take(nonce: string): Promise<string | null> {
    const value = await this.redis.getdel<string>(oauthStateKey(this.prefix, nonce));
    return value === null ? null : String(value);
  }
}

type InstallServices = Pick<Services, "secrets"> & { installStates: InstallStates };

/** A new flow's state and cookie for the client at `address` (CF-Connecting-IP); how long to wait when over a cap. */
export async function newInstallState(
  rt: InstallServices,
  address: string,
): Promise<{ state: string; cookie: string } | { retryAfterSeconds: number }> {
  const nonce = randomText();
  const cookie = randomText();
  const client = await clientId(rt.secrets, address);
  const waitMs = await rt.installStates.start(client, nonce, await sha256Hex(cookie));
  if (waitMs > 0) return { retryAfterSeconds: Math.ceil(waitMs / 1000) };
  // Bound to nothing more than its use: the nonce is worth something only with its Redis key and the browser's cookie.
  return { state: await rt.secrets.oauthState.seal(nonce, ""), cookie };
}

/** Takes the state (it never works twice, whatever the outcome) and says whether this callback may go on. */
export async function takeInstallState(
  rt: InstallServices,
  state: string,
  cookie: string | undefined,
): Promise<StateCheck> {
  let nonce: string;
  try {
    nonce = await rt.secrets.oauthState.open(state, "");
  } catch {
    return "forged";
  }
  const expected = await rt.installStates.take(nonce);
  if (expected === null) return "expired_or_used";
  if (!cookie || !constantTimeEqual(expected, await sha256Hex(cookie))) return "other_browser";
  return "ok";
}

function randomText(): string {
  return bytesToBase64url(crypto.getRandomValues(new Uint8Array(24)));
}
