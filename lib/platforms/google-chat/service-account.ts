/**
 * @module
 * The app's access token for the Chat API (app authentication): a JWT assertion signed with the service account's
 * private key (RS256 through WebCrypto: RSASSA-PKCS1-v1_5 with SHA-256, the key imported from its PKCS#8 PEM),
 * exchanged at GOOGLE_OAUTH_TOKEN_URL for a bearer token (RFC 7523, `grant_type` jwt-bearer; Google's "Using OAuth
 * 2.0 for Server to Server Applications": `iss` the account's email, `scope`, `aud` the token URL, `iat`, `exp` at
 * most an hour on). Kept within the isolate until a minute before it expires, one per scope, so that a job makes
 * one exchange an hour, not one a call. No Node-only library: this runs in the Worker.
 */

import { base64ToBytes, bytesToBase64url, textToBase64url } from "../../base64.ts";
import { GiveUp } from "../../errors.ts";
import * as z from "../../zod.ts";
import { type KeptToken, TokenKeeper } from "../kept-token.ts";
import { PlatformRateLimited } from "../rate-limited.ts";
import { type ServiceAccountKey, serviceAccountOf } from "./settings.ts";

/** What the app does as itself: post, edit, read attachments (the Chat API's scope for app authentication). */
export const CHAT_BOT_SCOPE = "https://www.googleapis.com/auth/chat.bot";
/** Reading a space's messages as the app: needs a Workspace administrator's one-time approval. */
export const CHAT_APP_MESSAGES_READ_SCOPE = "https://www.googleapis.com/auth/chat.app.messages.readonly";

const ASSERTION_LIFETIME_SECONDS = 3_600;
/** Taken for expired this long before Google says it is: a call made with it still lands within its life. */
const EXPIRY_MARGIN_MS = 60_000;
const TOKEN_TIMEOUT_MS = 10_000;
const RS256 = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

const tokenAnswerSchema = z.looseObject({
  access_token: z.string().check(z.minLength(1)),
  expires_in: z.number().check(z.positive()),
});

export interface TokenRequest {
  /** The service account's JSON key, as the setting holds it. */
  keyJson: string;
  tokenUrl: string;
  scope: string;
  fetch: typeof fetch;
  now(): number;
}

/** One token per account, token URL and scope, for the whole isolate. */
const tokens = new TokenKeeper(EXPIRY_MARGIN_MS);

const cacheId = (account: ServiceAccountKey, request: Omit<TokenRequest, "fetch" | "now">) =>
  `${account.client_email}|${request.tokenUrl}|${request.scope}`;

/** A bearer token for `scope`, from the cache or a new exchange (one at a time per key, however many ask). */
export async function accessToken(request: TokenRequest): Promise<string> {
  const account = serviceAccountOf(request.keyJson);
  if (!account) throw new GiveUp("GOOGLE_CHAT_SERVICE_ACCOUNT is not a service account's JSON key", "not_configured");
  return tokens.token(cacheId(account, request), request.now(), () => exchangeAssertion(account, request));
}

/** Forgets the token of `request`: Google refused it before its time (revoked), and the next call exchanges anew. */
export function forgetAccessToken(request: Omit<TokenRequest, "fetch" | "now">): void {
  const account = serviceAccountOf(request.keyJson);
  if (account) tokens.forget(cacheId(account, request));
}

async function exchangeAssertion(account: ServiceAccountKey, request: TokenRequest): Promise<KeptToken> {
  const issuedAt = Math.floor(request.now() / 1000);
  const assertion = await signAssertion(account, {
    iss: account.client_email,
    scope: request.scope,
    aud: request.tokenUrl,
    iat: issuedAt,
    exp: issuedAt + ASSERTION_LIFETIME_SECONDS,
  });
  const response = await request.fetch(request.tokenUrl, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }).toString(),
    signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (response.status === 429) throw new PlatformRateLimited("Google's token endpoint rate limited", 1);
  // `invalid_grant` and `unauthorized_client` (a deleted or disabled key, a clock far off) never pass by retrying.
  if (response.status === 400 || response.status === 401 || response.status === 403)
    throw new GiveUp(`Google refused the service account's token request (${errorOf(body)})`, "google_chat_auth");
  const parsed = tokenAnswerSchema.safeParse(body);
  if (!response.ok || !parsed.success) throw new Error(`Google's token endpoint answered HTTP ${response.status}`);
  return { token: parsed.data.access_token, expiresAt: request.now() + parsed.data.expires_in * 1000 };
}

/** Google's OAuth error code, never its description (which may quote the request). */
function errorOf(body: unknown): string {
  const parsed = z.looseObject({ error: z.string() }).safeParse(body);
  return parsed.success ? parsed.data.error.replace(/[^a-z_]/g, "").slice(0, 40) : "no error code";
}

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

/** A compact JWS (RS256) of `claims`, signed with the account's private key. */
export async function signAssertion(account: ServiceAccountKey, claims: Record<string, unknown>): Promise<string> {
  const header = { alg: "RS256", typ: "JWT", ...(account.private_key_id ? { kid: account.private_key_id } : {}) };
  const part = (value: unknown) => textToBase64url(JSON.stringify(value));
  const signed = `${part(header)}.${part(claims)}`;
  let key = keys.get(account.private_key);
  if (!key) {
    key = importPrivateKey(account.private_key);
    keys.set(account.private_key, key);
    key.catch(() => keys.delete(account.private_key));
  }
  const signature = await crypto.subtle.sign(RS256.name, await key, encoder.encode(signed));
  return `${signed}.${bytesToBase64url(new Uint8Array(signature))}`;
}

async function importPrivateKey(pem: string): Promise<CryptoKey> {
  const body = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, "").replace(/\s+/g, "");
  const der = base64ToBytes(body);
  if (!der) throw new GiveUp("the service account's private key is not PEM", "not_configured");
  try {
    return await crypto.subtle.importKey("pkcs8", der, RS256, false, ["sign"]);
  } catch {
    throw new GiveUp("the service account's private key is not an RSA PKCS#8 key", "not_configured");
  }
}
