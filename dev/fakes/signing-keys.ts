/**
 * @module
 * The signing keys of the fakes whose platform signs its deliveries with a bearer JWT (Google Chat, the Bot
 * Connector), published as each platform publishes its own: as `{kid: PEM X.509 certificate}` (Google's
 * service_accounts/v1/metadata/x509/chat@system.gserviceaccount.com) or as a JWKS entry (Google's oauth2/v3/certs,
 * the Bot Connector's login.botframework.com/v1/.well-known/keys, with its endorsements), and compact JWS (RS256)
 * signed with them. The certificates are real self-signed X.509 v3 (RFC 5280 §4.1) built here in DER, since node:crypto
 * parses certificates but makes none; Node's X509Certificate reads them back in the fake's tests.
 */
import { createSign, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";

export interface FakeSigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export function newSigningKey(): FakeSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { kid: randomBytes(20).toString("hex"), privateKey, publicKey };
}

const b64url = (bytes: Buffer | string) => Buffer.from(bytes).toString("base64url");

/** A compact JWS of `claims` signed RS256 with `key` (its `kid` in the header). */
export function signJwt(key: FakeSigningKey, claims: Record<string, unknown>): string {
  const header = { alg: "RS256", kid: key.kid, typ: "JWT" };
  const signed = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  return `${signed}.${createSign("RSA-SHA256").update(signed).sign(key.privateKey).toString("base64url")}`;
}

/**
 * The key as a JWKS entry, as Google's certs endpoint lists it; with `endorsements`, as the Bot Connector's lists it
 * (the channels the key signs for: `["msteams"]`).
 */
export function publicJwk(key: FakeSigningKey, endorsements?: readonly string[]): Record<string, unknown> {
  const { n, e } = key.publicKey.export({ format: "jwk" });
  return { kty: "RSA", alg: "RS256", use: "sig", kid: key.kid, n, e, ...(endorsements ? { endorsements } : {}) };
}

/** DER: a tag, its definite length (X.690 §8.1.3), its content. */
function der(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}
const sequence = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const integer = (bytes: Buffer) => der(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
function objectId(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const body = [40 * a! + b!];
  for (const arc of rest) {
    const sevens = [];
    for (let v = arc; ; v = Math.floor(v / 128)) {
      sevens.unshift(v % 128);
      if (v < 128) break;
    }
    body.push(...sevens.map((s, i) => (i < sevens.length - 1 ? s | 0x80 : s)));
  }
  return der(0x06, Buffer.from(body));
}
const utcTime = (at: Date) => der(0x17, Buffer.from(`${at.toISOString().slice(2, 19).replace(/[-:T]/g, "")}Z`));
const SHA256_WITH_RSA = sequence(objectId("1.2.840.113549.1.1.11"), Buffer.from([0x05, 0x00]));
const commonName = (cn: string) => sequence(der(0x31, sequence(objectId("2.5.4.3"), der(0x0c, Buffer.from(cn)))));

/** A self-signed certificate of the key, for `subject`, valid a day either side of now, as PEM. */
export function certificatePem(key: FakeSigningKey, subject: string): string {
  const now = Date.now();
  const tbs = sequence(
    der(0xa0, integer(Buffer.from([2]))),
    integer(randomBytes(8)),
    SHA256_WITH_RSA,
    commonName(subject),
    sequence(utcTime(new Date(now - 86_400_000)), utcTime(new Date(now + 86_400_000))),
    commonName(subject),
    key.publicKey.export({ type: "spki", format: "der" }),
  );
  const signature = createSign("RSA-SHA256").update(tbs).sign(key.privateKey);
  const cert = sequence(tbs, SHA256_WITH_RSA, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const lines = cert
    .toString("base64")
    .match(/.{1,64}/g)!
    .join("\n");
  return `-----BEGIN CERTIFICATE-----\n${lines}\n-----END CERTIFICATE-----\n`;
}
