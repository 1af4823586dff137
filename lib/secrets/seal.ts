/**
 * @module
 * Sealing small values with AES-256-GCM under a keyring sub-key: `v2.<key id>.<base64url of IV and ciphertext>`.
 * The header (version, key id, use) and what the value is bound to (its tenant, a job's clear fields) are
 * authenticated with the ciphertext, so a value sealed for one use or one place never opens as another, and a
 * changed byte anywhere makes `open` fail instead of returning something else. Used for the personal fields of
 * queued jobs, stored platform tokens (lib/tenants/) and install states, each under its own use.
 */

import { base64urlToBytes, bytesToBase64url } from "../base64.ts";
import type { Keyring, KeyUse } from "./keyring.ts";

const VERSION = "v2";
/** Sealed before values were bound to where they belong: only the header was authenticated with them. */
const UNBOUND_VERSION = "v1";
const IV_BYTES = 12;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A sealed value that cannot be opened: malformed, sealed with a key the keyring does not hold, or altered. */
export class SealError extends Error {
  constructor(reason: string) {
    super(`a sealed value could not be opened: ${reason}`);
    this.name = "SealError";
  }
}

export interface OpenOptions {
  /**
   * Also open a value sealed before values were bound (v1): for a caller that checks what the value holds itself
   * (an installation names its tenant), or that reads what the previous release sealed during a rollover.
   */
  unbound?: boolean;
}

export class Sealer {
  readonly #keyring: Keyring;
  readonly #use: KeyUse;

  constructor(keyring: Keyring, use: KeyUse) {
    this.#keyring = keyring;
    this.#use = use;
  }

  /** `boundTo`: where the value belongs (a tenant, a job's clear fields); it opens only with the same. */
  async seal(plaintext: string, boundTo: string): Promise<string> {
    const [current] = await this.#keyring.aesKeys(this.#use);
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const sealed = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: this.#associatedData(VERSION, current!.keyId, boundTo) },
      current!.key,
      encoder.encode(plaintext),
    );
    const body = new Uint8Array(IV_BYTES + sealed.byteLength);
    body.set(iv);
    body.set(new Uint8Array(sealed), IV_BYTES);
    return `${VERSION}.${current!.keyId}.${bytesToBase64url(body)}`;
  }

  /**
   * The plaintext; throws SealError when the value cannot be opened with any key of the keyring, bound to `boundTo`.
   */
  async open(sealed: string, boundTo: string, opts: OpenOptions = {}): Promise<string> {
    const [version, keyId, encoded, ...rest] = sealed.split(".");
    const known = version === VERSION || (opts.unbound === true && version === UNBOUND_VERSION);
    if (!known || !keyId || !encoded || rest.length > 0) throw new SealError("not a sealed value");
    const body = base64urlToBytes(encoded);
    if (!body || body.length <= IV_BYTES) throw new SealError("not a sealed value");
    const key = (await this.#keyring.aesKeys(this.#use)).find((k) => k.keyId === keyId);
    if (!key)
      throw new SealError(`no key with id ${keyId} (is an older key missing from TOKEN_ENCRYPTION_PREVIOUS_KEYS?)`);
    try {
      const plain = await crypto.subtle.decrypt(
        {
          name: "AES-GCM",
          iv: body.subarray(0, IV_BYTES),
          additionalData: this.#associatedData(version, keyId, boundTo),
        },
        key.key,
        body.subarray(IV_BYTES),
      );
      return decoder.decode(plain);
    } catch {
      throw new SealError("it was altered, or sealed for another use or place");
    }
  }

  /**
   * True when the value is sealed as `seal` seals now: bound, under the current key (a key rotation re-seals the
   * others).
   */
  async isCurrent(sealed: string): Promise<boolean> {
    const [current] = await this.#keyring.aesKeys(this.#use);
    const [version, keyId] = sealed.split(".");
    return version === VERSION && keyId === current!.keyId;
  }

  #associatedData(version: string, keyId: string, boundTo: string): Uint8Array<ArrayBuffer> {
    const header = `${version}.${keyId}.${this.#use}`;
    // The header never holds a line break: whatever follows the first one is the binding, unambiguously.
    return new Uint8Array(encoder.encode(version === UNBOUND_VERSION ? header : `${header}\n${boundTo}`));
  }
}
