/**
 * @module
 * Sealing small values with AES-256-GCM under a keyring sub-key: `v1.<key id>.<base64url of IV and ciphertext>`.
 * The header (version, key id, use) is authenticated with the ciphertext, so a value sealed for one use never opens
 * as another, and a changed byte anywhere makes `open` fail instead of returning something else. Used for the
 * personal fields of queued jobs, stored platform tokens (lib/tenants/) and install states, each under its own use.
 */
import type { KeyUse, Keyring } from "./keyring.ts";
import { base64urlToBytes, bytesToBase64url } from "./encoding.ts";

const VERSION = "v1";
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

export class Sealer {
  readonly #keyring: Keyring;
  readonly #use: KeyUse;

  constructor(keyring: Keyring, use: KeyUse) {
    this.#keyring = keyring;
    this.#use = use;
  }

  async seal(plaintext: string): Promise<string> {
    const [current] = await this.#keyring.aesKeys(this.#use);
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const sealed = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: this.#header(current!.keyId) },
      current!.key,
      encoder.encode(plaintext),
    );
    const body = new Uint8Array(IV_BYTES + sealed.byteLength);
    body.set(iv);
    body.set(new Uint8Array(sealed), IV_BYTES);
    return `${VERSION}.${current!.keyId}.${bytesToBase64url(body)}`;
  }

  /** The plaintext; throws SealError when the value cannot be opened with any key of the keyring. */
  async open(sealed: string): Promise<string> {
    const [version, keyId, encoded, ...rest] = sealed.split(".");
    if (version !== VERSION || !keyId || !encoded || rest.length > 0) throw new SealError("not a sealed value");
    const body = base64urlToBytes(encoded);
    if (!body || body.length <= IV_BYTES) throw new SealError("not a sealed value");
    const key = (await this.#keyring.aesKeys(this.#use)).find((k) => k.keyId === keyId);
    if (!key) throw new SealError(`no key with id ${keyId} (is an older key missing from TOKEN_ENCRYPTION_PREVIOUS_KEYS?)`);
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: body.subarray(0, IV_BYTES), additionalData: this.#header(keyId) },
        key.key,
        body.subarray(IV_BYTES),
      );
      return decoder.decode(plain);
    } catch {
      throw new SealError("it was altered or sealed for another use");
    }
  }

  /** The value sealed anew under the current key; null when it already is (a key rotation re-encrypts with it). */
  async reseal(sealed: string): Promise<string | null> {
    const [current] = await this.#keyring.aesKeys(this.#use);
    if (sealed.split(".")[1] === current!.keyId) return null;
    return this.seal(await this.open(sealed));
  }

  #header(keyId: string): Uint8Array<ArrayBuffer> {
    return new Uint8Array(encoder.encode(`${VERSION}.${keyId}.${this.#use}`));
  }
}
