/**
 * The shared bearer-token check (lib/platforms/bearer-jwt.ts, lib/platforms/jwt-keys.ts) against keys made here:
 * the platforms publish no test vector, so each test signs its own tokens with a generated RSA key and serves the
 * key set from an in-memory key server that counts its fetches.
 */
import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bytesToBase64url, textToBase64url } from "../../lib/base64.ts";
import { type BearerJwtOptions, verifyBearerJwt, verifyJwt } from "../../lib/platforms/bearer-jwt.ts";
import { certificateSpki, type KeySource, signingKeys, UNKNOWN_KID_REFETCH_MS } from "../../lib/platforms/jwt-keys.ts";

const RS256 = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;
const ISSUER = "https://issuer.example";
const AUDIENCE = "app-1";
const NOW = 1_800_000_000_000;

async function keyPair(): Promise<CryptoKeyPair> {
  const params = { ...RS256, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };
  return (await crypto.subtle.generateKey(params, true, ["sign", "verify"])) as CryptoKeyPair;
}

const part = (value: unknown) => textToBase64url(JSON.stringify(value));

async function sign(privateKey: CryptoKey, header: Record<string, unknown>, claims: Record<string, unknown>) {
  const signed = `${part(header)}.${part(claims)}`;
  const signature = new Uint8Array(await crypto.subtle.sign(RS256.name, privateKey, new TextEncoder().encode(signed)));
  return `${signed}.${bytesToBase64url(signature)}`;
}

const claims = (overrides: Record<string, unknown> = {}) => ({
  iss: ISSUER,
  aud: AUDIENCE,
  exp: NOW / 1000 + 3600,
  nbf: NOW / 1000 - 60,
  ...overrides,
});

/** A key server: paths → bodies, each fetch counted; a path set to a status answers it. */
function keyServer(routes: Record<string, unknown>) {
  const fetches: string[] = [];
  const fetcher = (async (input: RequestInfo | URL) => {
    const url = String(input);
    fetches.push(url);
    const route = routes[url];
    if (typeof route === "number") return new Response("no", { status: route });
    return route === undefined ? new Response("not found", { status: 404 }) : Response.json(route);
  }) as typeof fetch;
  return { routes, fetches, fetch: fetcher };
}

let sources = 0;
/** A fresh URL per test: the key cache is the isolate's, shared by every test of the file. */
const freshUrl = (name: string) => `https://keys.example/${++sources}/${name}`;

async function jwk(publicKey: CryptoKey, kid: string, extra: Record<string, unknown> = {}) {
  const { n, e } = (await crypto.subtle.exportKey("jwk", publicKey)) as JsonWebKey;
  return { kty: "RSA", use: "sig", kid, n, e, ...extra };
}

async function setup(options: { endorsements?: string[] } = {}) {
  const pair = await keyPair();
  const jwksUrl = freshUrl("jwks");
  const server = keyServer({ [jwksUrl]: { keys: [await jwk(pair.publicKey, "k1", options)] } });
  let clock = NOW;
  const source: KeySource = { jwksUrl };
  const verifyOptions: BearerJwtOptions = {
    keys: signingKeys(source, { fetch: server.fetch, now: () => clock }),
    issuers: [ISSUER],
    audiences: [AUDIENCE],
    now: () => clock,
  };
  return {
    pair,
    server,
    jwksUrl,
    options: verifyOptions,
    advance: (ms: number) => (clock += ms),
    token: (overrides: Record<string, unknown> = {}, header: Record<string, unknown> = { alg: "RS256", kid: "k1" }) =>
      sign(pair.privateKey, header, claims(overrides)),
  };
}

describe("a bearer JWT", () => {
  it("is accepted when signed by a published key, from the issuer, for the audience, in its lifetime", async () => {
    const s = await setup();
    const result = await verifyBearerJwt(`Bearer ${await s.token({ serviceurl: "https://svc.example/" })}`, s.options);
    expect(result).toMatchObject({ ok: true, token: { claims: { serviceurl: "https://svc.example/" } } });
  });

  it("is refused when missing, not a bearer token, or not three base64url parts", async () => {
    const s = await setup();
    expect(await verifyBearerJwt(null, s.options)).toEqual({ ok: false, reason: "missing_token" });
    expect(await verifyBearerJwt(`Basic ${await s.token()}`, s.options)).toEqual({ ok: false, reason: "malformed" });
    expect(await verifyBearerJwt("Bearer a.b", s.options)).toEqual({ ok: false, reason: "malformed" });
    expect(await verifyJwt("e30.e30.!!", s.options)).toEqual({ ok: false, reason: "malformed" });
    expect(await verifyJwt("bm90IGpzb24.e30.c2ln", s.options)).toEqual({ ok: false, reason: "malformed" });
  });

  it("is refused when signed by another key under a published key's id", async () => {
    const s = await setup();
    const forger = await keyPair();
    const forged = await sign(forger.privateKey, { alg: "RS256", kid: "k1" }, claims());
    expect(await verifyJwt(forged, s.options)).toEqual({ ok: false, reason: "bad_signature" });
    const [header, , signature] = (await s.token()).split(".");
    const altered = `${header}.${part(claims({ aud: "another-app" }))}.${signature}`;
    expect(await verifyJwt(altered, s.options)).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("is refused whatever algorithm other than RS256 its header names, none and HMAC included", async () => {
    const s = await setup();
    for (const alg of ["none", "HS256", "RS512", "PS256", undefined]) {
      const token = await s.token({}, { alg, kid: "k1" });
      expect(await verifyJwt(token, s.options)).toEqual({ ok: false, reason: "unsupported_algorithm" });
    }
  });

  it("is refused from another issuer or for another audience; an audience array holding ours is accepted", async () => {
    const s = await setup();
    expect(await verifyJwt(await s.token({ iss: "https://other.example" }), s.options)).toEqual({
      ok: false,
      reason: "wrong_issuer",
    });
    expect(await verifyJwt(await s.token({ aud: "app-2" }), s.options)).toEqual({
      ok: false,
      reason: "wrong_audience",
    });
    expect(await verifyJwt(await s.token({ aud: undefined }), s.options)).toMatchObject({ reason: "wrong_audience" });
    expect(await verifyJwt(await s.token({ aud: ["app-2", AUDIENCE] }), s.options)).toMatchObject({ ok: true });
  });

  it("is accepted up to five minutes past its expiry or before its not-before, refused beyond", async () => {
    const s = await setup();
    const at = NOW / 1000;
    expect(await verifyJwt(await s.token({ exp: at - 299 }), s.options)).toMatchObject({ ok: true });
    expect(await verifyJwt(await s.token({ exp: at - 301 }), s.options)).toEqual({ ok: false, reason: "expired" });
    expect(await verifyJwt(await s.token({ exp: undefined }), s.options)).toEqual({ ok: false, reason: "expired" });
    expect(await verifyJwt(await s.token({ nbf: at + 299 }), s.options)).toMatchObject({ ok: true });
    expect(await verifyJwt(await s.token({ nbf: at + 301 }), s.options)).toEqual({
      ok: false,
      reason: "not_yet_valid",
    });
  });

  it("passes the claims and the key's endorsements to the platform's own check, whose reason refuses it", async () => {
    const s = await setup({ endorsements: ["msteams", "webchat"] });
    const options: BearerJwtOptions = {
      ...s.options,
      check: ({ claims, key }) =>
        !key.endorsements.includes("msteams")
          ? "not_endorsed"
          : claims.serviceurl !== "https://svc.example/"
            ? "wrong_service_url"
            : undefined,
    };
    expect(await verifyJwt(await s.token({ serviceurl: "https://svc.example/" }), options)).toMatchObject({ ok: true });
    expect(await verifyJwt(await s.token({ serviceurl: "https://evil.example/" }), options)).toEqual({
      ok: false,
      reason: "wrong_service_url",
    });
  });
});

describe("a platform's signing keys", () => {
  it("are fetched once and kept for the isolate, across every verifier built on the same source", async () => {
    const s = await setup();
    await verifyJwt(await s.token(), s.options);
    const again = { ...s.options, keys: signingKeys({ jwksUrl: s.jwksUrl }, { fetch: s.server.fetch }) };
    expect(await verifyJwt(await s.token(), again)).toMatchObject({ ok: true });
    expect(s.server.fetches).toEqual([s.jwksUrl]);
  });

  it("are fetched again for an unknown key id, at most once a minute, so a rotated key is found", async () => {
    const s = await setup();
    await verifyJwt(await s.token(), s.options);
    const rotated = await keyPair();
    s.server.routes[s.jwksUrl] = { keys: [await jwk(rotated.publicKey, "k2")] };
    const withNewKey = await sign(rotated.privateKey, { alg: "RS256", kid: "k2" }, claims());
    const madeUp = await sign(rotated.privateKey, { alg: "RS256", kid: "made-up" }, claims());

    s.advance(UNKNOWN_KID_REFETCH_MS - 1);
    expect(await verifyJwt(withNewKey, s.options)).toEqual({ ok: false, reason: "unknown_key" });
    s.advance(1);
    expect(await verifyJwt(withNewKey, s.options)).toMatchObject({ ok: true });
    expect(await verifyJwt(madeUp, s.options)).toEqual({ ok: false, reason: "unknown_key" });
    expect(await verifyJwt(madeUp, s.options)).toEqual({ ok: false, reason: "unknown_key" });
    expect(s.server.fetches).toHaveLength(2);
  });

  it("fetch once for many requests at the same moment", async () => {
    const s = await setup();
    const token = await s.token();
    const results = await Promise.all(Array.from({ length: 5 }, () => verifyJwt(token, s.options)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(s.server.fetches).toHaveLength(1);
  });

  it("that cannot be fetched answer keys_unavailable (503, not a forger's 401), and keep the cached ones", async () => {
    const s = await setup();
    const down = { ...s.options, keys: signingKeys({ jwksUrl: freshUrl("down") }, { fetch: s.server.fetch }) };
    expect(await verifyJwt(await s.token(), down)).toEqual({ ok: false, reason: "keys_unavailable" });

    expect(await verifyJwt(await s.token(), s.options)).toMatchObject({ ok: true });
    s.server.routes[s.jwksUrl] = 500;
    s.advance(25 * 60 * 60_000);
    expect(await verifyJwt(await s.token({ exp: NOW / 1000 + 26 * 3600 }), s.options)).toMatchObject({ ok: true });
    const unknown = await s.token({ exp: NOW / 1000 + 26 * 3600 }, { alg: "RS256", kid: "k9" });
    expect(await verifyJwt(unknown, s.options)).toEqual({ ok: false, reason: "keys_unavailable" });
  });

  it("follow an OpenID provider's metadata to its jwks_uri", async () => {
    const pair = await keyPair();
    const metadataUrl = freshUrl("openid");
    const jwksUrl = freshUrl("jwks");
    const server = keyServer({
      [metadataUrl]: { issuer: ISSUER, jwks_uri: jwksUrl },
      [jwksUrl]: { keys: [await jwk(pair.publicKey, "k1")] },
    });
    const options = {
      keys: signingKeys({ openIdMetadataUrl: metadataUrl }, { fetch: server.fetch, now: () => NOW }),
      issuers: [ISSUER],
      audiences: [AUDIENCE],
      now: () => NOW,
    };
    const token = await sign(pair.privateKey, { alg: "RS256", kid: "k1" }, claims());
    expect(await verifyJwt(token, options)).toMatchObject({ ok: true, token: { key: { endorsements: [] } } });
    expect(server.fetches).toEqual([metadataUrl, jwksUrl]);
  });

  it("leave out what cannot verify RS256: other key types, encryption keys, keys without an id", async () => {
    const pair = await keyPair();
    const jwksUrl = freshUrl("jwks");
    const key = await jwk(pair.publicKey, "k1");
    const server = keyServer({
      [jwksUrl]: {
        keys: [
          { kty: "EC", kid: "e1", crv: "P-256" },
          { ...key, use: "enc" },
          { ...key, kid: undefined },
        ],
      },
    });
    const options = { keys: signingKeys({ jwksUrl }, { fetch: server.fetch, now: () => NOW }), now: () => NOW };
    const token = await sign(pair.privateKey, { alg: "RS256", kid: "k1" }, claims());
    expect(await verifyJwt(token, { ...options, issuers: [ISSUER], audiences: [AUDIENCE] })).toEqual({
      ok: false,
      reason: "unknown_key",
    });
  });
});

describe("X.509 certificate key sets ({kid: PEM certificate}, as Google serves its service accounts' keys)", () => {
  it("verify a token signed with the certificate's key", async () => {
    const pair = await keyPair();
    const pem = await selfSignedCertificate(pair);
    // Node's own X.509 parser reads the same public key out of it as ours does.
    const nodeSpki = new X509Certificate(pem).publicKey.export({ type: "spki", format: "der" });
    expect(Buffer.from(certificateSpki(pem))).toEqual(nodeSpki);

    const url = freshUrl("x509");
    const server = keyServer({ [url]: { abc123: pem } });
    const options = {
      keys: signingKeys({ x509CertificatesUrl: url }, { fetch: server.fetch, now: () => NOW }),
      issuers: ["chat@system.gserviceaccount.com"],
      audiences: ["123456789"],
      now: () => NOW,
    };
    const token = await sign(
      pair.privateKey,
      { alg: "RS256", kid: "abc123" },
      claims({ iss: "chat@system.gserviceaccount.com", aud: "123456789" }),
    );
    expect(await verifyJwt(token, options)).toMatchObject({ ok: true });
  });

  it("refuse what is not a certificate", () => {
    expect(() => certificateSpki("-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----")).toThrow();
    expect(() => certificateSpki("not pem at all")).toThrow();
  });
});

// A minimal self-signed X.509 v3 certificate in DER (RFC 5280 §4.1), built here so that the test needs no tool.
function der(tag: number, ...content: Uint8Array[]): Uint8Array {
  const body = Buffer.concat(content);
  const length =
    body.length < 0x80
      ? [body.length]
      : body.length < 0x100
        ? [0x81, body.length]
        : [0x82, body.length >> 8, body.length & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), body]);
}
const oid = (bytes: number[]) => der(0x06, Buffer.from(bytes));
const SHA256_WITH_RSA = der(0x30, oid([0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b]), der(0x05));
const name = der(0x31, der(0x30, oid([0x55, 0x04, 0x03]), der(0x0c, Buffer.from("test"))));
const time = (text: string) => der(0x17, Buffer.from(text));

async function selfSignedCertificate(pair: CryptoKeyPair): Promise<string> {
  const spki = new Uint8Array((await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer);
  const tbs = der(
    0x30,
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, Buffer.from([1])),
    SHA256_WITH_RSA,
    der(0x30, name),
    der(0x30, time("260101000000Z"), time("360101000000Z")),
    der(0x30, name),
    spki,
  );
  const signature = new Uint8Array(await crypto.subtle.sign(RS256.name, pair.privateKey, tbs));
  const certificate = der(0x30, tbs, SHA256_WITH_RSA, der(0x03, Buffer.from([0]), signature));
  const base64 = Buffer.from(certificate).toString("base64");
  return `-----BEGIN CERTIFICATE-----\n${base64.replace(/.{64}/g, "$&\n")}\n-----END CERTIFICATE-----\n`;
}
