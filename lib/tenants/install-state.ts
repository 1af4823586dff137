/**
 * @module
 * The OAuth `state` of an install flow: signed, single-use, short-lived and bound to the browser that started it.
 * The state is a nonce sealed with AES-GCM (authenticated: a forged or altered state does not open); the nonce is
 * kept in Redis for STATE_TTL_SECONDS with the hash of a random cookie set on the same redirect, and taken with
 * GETDEL, so a replayed state finds nothing and a state carried to another browser lacks the cookie.
 */
import { bytesToHex, constantTimeEqual } from "../crypto.ts";
import { oauthStateKey } from "../keys.ts";
import { bytesToBase64url } from "../secrets/encoding.ts";
import type { Runtime } from "../runtime.ts";

/** Slack's own codes last ten minutes; an install takes a person well under that. */
export const STATE_TTL_SECONDS = 600;
export const STATE_COOKIE = "parley_install";

export type StateCheck = "ok" | "forged" | "expired_or_used" | "other_browser";

export async function newInstallState(rt: Runtime): Promise<{ state: string; cookie: string }> {
  const nonce = randomText();
  const cookie = randomText();
  await rt.redis.set(oauthStateKey(rt.settings.REDIS_KEY_PREFIX, nonce), await sha256Hex(cookie), { ex: STATE_TTL_SECONDS });
  // Bound to nothing more than its use: the nonce is worth something only with its Redis key and the browser's cookie.
  return { state: await rt.secrets.oauthState.seal(nonce, ""), cookie };
}

/** Takes the state (it never works twice, whatever the outcome) and says whether this callback may go on. */
export async function takeInstallState(rt: Runtime, state: string, cookie: string | undefined): Promise<StateCheck> {
  let nonce: string;
  try {
    nonce = await rt.secrets.oauthState.open(state, "");
  } catch {
    return "forged";
  }
  const expected = await rt.redis.getdel<string>(oauthStateKey(rt.settings.REDIS_KEY_PREFIX, nonce));
  if (expected === null) return "expired_or_used";
  if (!cookie || !constantTimeEqual(String(expected), await sha256Hex(cookie))) return "other_browser";
  return "ok";
}

function randomText(): string {
  return bytesToBase64url(crypto.getRandomValues(new Uint8Array(24)));
}

async function sha256Hex(text: string): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}
