/**
 * @module
 * The public keys a platform signs its bearer tokens with (lib/platforms/bearer-jwt.ts), fetched from where it
 * publishes them and kept within the isolate: a JWKS document (RFC 7517 §5), the JWKS an OpenID provider's metadata
 * names (its `jwks_uri`, OpenID Connect Discovery 1.0 §3; the Bot Connector's
 * https://login.botframework.com/v1/.well-known/openidconfiguration), or an object of key id → PEM X.509
 * certificate (Google's https://www.googleapis.com/service_accounts/v1/metadata/x509/<service account>).
 *
 * A token whose `kid` is not in the cached set fetches the set again, at most once a minute per source: the
 * platforms rotate keys rarely, and a forger's made-up `kid` must not turn every request into two fetches. A set
 * older than a day is fetched again anyway (botbuilder-js's OpenIdMetadata does both, once an hour and every 24 h).
 */
import { base64ToBytes } from "../base64.ts";
import { z } from "../zod.ts";

/** Where a platform publishes its keys. */
export type KeySource = { jwksUrl: string } | { openIdMetadataUrl: string } | { x509CertificatesUrl: string };

export interface SigningKey {
  kid: string;
  /** RSASSA-PKCS1-v1_5 with SHA-256 (RS256), for verifying only. */
  key: CryptoKey;
  /** Who vouches for the key: the Bot Connector's JWKS lists the channels a key signs for (`msteams`). */
  endorsements: readonly string[];
}

export interface SigningKeys {
  /** The key of that id; undefined when the source does not list it. Throws SigningKeysUnavailable. */
  find(kid: string): Promise<SigningKey | undefined>;
}

/** The keys could not be fetched: not the sender's fault, so the request is answered 503 (it retries), not 401. */
export class SigningKeysUnavailable extends Error {
  constructor(cause: unknown) {
    super("the signing keys could not be fetched", { cause });
    this.name = "SigningKeysUnavailable";
  }
}

export const UNKNOWN_KID_REFETCH_MS = 60_000;
const KEY_SET_MAX_AGE_MS = 24 * 60 * 60_000;
const FETCH_TIMEOUT_MS = 5_000;
const RS256 = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

const openIdMetadataSchema = z.object({ jwks_uri: z.url() });
const jwksSchema = z.object({
  keys: z.array(
    z.object({
      kid: z.optional(z.string()),
      kty: z.string(),
      use: z.optional(z.string()),
      n: z.optional(z.string()),
      e: z.optional(z.string()),
      endorsements: z.optional(z.array(z.string())),
    }),
  ),
});
const certificatesSchema = z.record(z.string(), z.string());

interface CachedSet {
  keys: Map<string, SigningKey>;
  /** When the last fetch was begun (succeeded or not), for the once-a-minute rule; -Infinity before the first. */
  triedAt: number;
  fetchedAt: number;
  failed: boolean;
  fetching?: Promise<void>;
}

/** One cache per source for the whole isolate: every request's `signingKeys(...)` shares it. */
const cache = new Map<string, CachedSet>();

export interface SigningKeysOptions {
  fetch?: typeof fetch;
  /** Milliseconds since the epoch. */
  now?: () => number;
}

export function signingKeys(source: KeySource, options: SigningKeysOptions = {}): SigningKeys {
  const fetcher = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const id = JSON.stringify(source);
  const entry = () => {
    const found: CachedSet = cache.get(id) ?? {
      keys: new Map(),
      triedAt: -Infinity,
      fetchedAt: -Infinity,
      failed: false,
    };
    cache.set(id, found);
    return found;
  };
  const refresh = (set: CachedSet) => {
    set.fetching ??= (async () => {
      set.triedAt = now();
      try {
        set.keys = await fetchKeySet(source, fetcher);
        set.fetchedAt = now();
        set.failed = false;
      } catch (err) {
        set.failed = true;
        if (set.keys.size === 0) throw new SigningKeysUnavailable(err);
      } finally {
        set.fetching = undefined;
      }
    })();
    return set.fetching;
  };
  return {
    async find(kid) {
      const set = entry();
      if (now() - set.fetchedAt > KEY_SET_MAX_AGE_MS && now() - set.triedAt >= UNKNOWN_KID_REFETCH_MS)
        await refresh(set);
      else if (set.fetching) await set.fetching;
      if (!set.keys.has(kid) && now() - set.triedAt >= UNKNOWN_KID_REFETCH_MS) await refresh(set);
      const key = set.keys.get(kid);
      // A key we cannot look for is not a forged one: the sender is asked to come back.
      if (!key && set.failed) throw new SigningKeysUnavailable("the last fetch failed");
      return key;
    },
  };
}

async function getJson(url: string, fetcher: typeof fetch): Promise<unknown> {
  const response = await fetcher(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`key source answered ${response.status}`);
  return response.json();
}

async function fetchKeySet(source: KeySource, fetcher: typeof fetch): Promise<Map<string, SigningKey>> {
  if ("x509CertificatesUrl" in source) {
    const certificates = certificatesSchema.parse(await getJson(source.x509CertificatesUrl, fetcher));
    const keys = await Promise.all(
      Object.entries(certificates).map(async ([kid, pem]) => ({
        kid,
        key: await crypto.subtle.importKey("spki", certificateSpki(pem), RS256, false, ["verify"]),
        endorsements: [],
      })),
    );
    return new Map(keys.map((k) => [k.kid, k]));
  }
  const jwksUrl =
    "jwksUrl" in source
      ? source.jwksUrl
      : openIdMetadataSchema.parse(await getJson(source.openIdMetadataUrl, fetcher)).jwks_uri;
  const { keys } = jwksSchema.parse(await getJson(jwksUrl, fetcher));
  const found = new Map<string, SigningKey>();
  for (const jwk of keys) {
    // Only RSA signing keys with an id can verify an RS256 token that names its key.
    if (jwk.kty !== "RSA" || !jwk.kid || !jwk.n || !jwk.e || (jwk.use !== undefined && jwk.use !== "sig")) continue;
    const key = await crypto.subtle.importKey("jwk", { kty: "RSA", n: jwk.n, e: jwk.e }, RS256, false, ["verify"]);
    found.set(jwk.kid, { kid: jwk.kid, key, endorsements: jwk.endorsements ?? [] });
  }
  return found;
}

/** The DER SubjectPublicKeyInfo of a PEM X.509 certificate. */
export function certificateSpki(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
  const der = base64ToBytes(body);
  if (!der) throw new Error("the certificate is not PEM");
  // Certificate ::= SEQUENCE { tbsCertificate, ... }; tbsCertificate ::= SEQUENCE { [0] version OPTIONAL,
  // serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, ... } (RFC 5280 §4.1).
  const certificate = derElement(der, 0);
  const tbs = derElement(der, certificate.contentStart);
  const fields: DerElement[] = [];
  for (let at = tbs.contentStart; at < tbs.end && fields.length < 7; ) {
    const field = derElement(der, at);
    fields.push(field);
    at = field.end;
  }
  const spki = fields[fields[0]?.tag === 0xa0 ? 6 : 5];
  if (spki?.tag !== 0x30) throw new Error("the certificate has no public key where X.509 puts it");
  return der.slice(spki.start, spki.end);
}

interface DerElement {
  tag: number;
  start: number;
  contentStart: number;
  end: number;
}

/** One DER tag-length-value at `start` (X.690 §8.1: short or long definite lengths). */
function derElement(der: Uint8Array, start: number): DerElement {
  const tag = der[start];
  let length = der[start + 1];
  if (tag === undefined || length === undefined) throw new Error("the certificate ends early");
  let at = start + 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (octets < 1 || octets > 4) throw new Error("the certificate has a length DER does not allow");
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + (der[at++] ?? 0);
  }
  if (at + length > der.length) throw new Error("the certificate ends early");
  return { tag, start, contentStart: at, end: at + length };
}
