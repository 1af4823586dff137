/**
 * @module
 * The keys behind what Parley encrypts and pseudonymizes: TOKEN_ENCRYPTION_KEY (the current key) and
 * TOKEN_ENCRYPTION_PREVIOUS_KEYS (older keys, kept only to open what they sealed), each the base64 of 32 random
 * bytes. Every use gets its own sub-key (HKDF-SHA-256, the use as info), so the key that seals job payloads never
 * also keys log pseudonyms or stored tokens. Each key has a short id derived from it, written into every value it
 * seals, so that after a rotation the right key opens an older value. WebCrypto only: this runs in the Worker.
 */

import { base64ToBytes } from "../base64.ts";
import { bytesToHex } from "../crypto.ts";

export const KEY_BYTES = 32;
/** What a sub-key is for; a new use is a new name here, never a reused one. */
export type KeyUse = "job-payload" | "log-pseudonym" | "tool-pseudonym" | "stored-token" | "oauth-state";

const encoder = new TextEncoder();
const KEY_ID_INFO = "parley key id";
const KEY_ID_BYTES = 4;

/** The key's bytes when `text` is the base64 of exactly 32 bytes; null otherwise. */
export function decodeKey(text: string): Uint8Array<ArrayBuffer> | null {
  const bytes = base64ToBytes(text.trim());
  return bytes && bytes.length === KEY_BYTES ? bytes : null;
}

export interface SubKey {
  /** The id of the key it was derived from (hex), as sealed values name it. */
  keyId: string;
  key: CryptoKey;
}

type Algorithm = { name: "AES-GCM"; length: 256 } | { name: "HMAC"; hash: "SHA-256"; length: 256 };

export class Keyring {
  readonly #keys: Uint8Array<ArrayBuffer>[];
  readonly #derived = new Map<string, Promise<SubKey[]>>();

  /** `current` seals and keys pseudonyms; `previous` only open. Throws when a key is not 32 bytes of base64. */
  constructor(current: string, previous: readonly string[] = []) {
    this.#keys = [current, ...previous].map((text, i) => {
      const bytes = decodeKey(text);
      if (!bytes) throw new Error(`encryption key ${i} is not the base64 of ${KEY_BYTES} bytes`);
      return bytes;
    });
  }

  /** The AES-GCM sub-keys for `use`, the current key's first. */
  aesKeys(use: KeyUse): Promise<SubKey[]> {
    return this.#derive(use, { name: "AES-GCM", length: 256 }, ["encrypt", "decrypt"]);
  }

  /** The current key's HMAC-SHA-256 sub-key for `use`. */
  async hmacKey(use: KeyUse): Promise<SubKey> {
    return (await this.#derive(use, { name: "HMAC", hash: "SHA-256", length: 256 }, ["sign"]))[0]!;
  }

  #derive(use: KeyUse, algorithm: Algorithm, usages: ("encrypt" | "decrypt" | "sign")[]): Promise<SubKey[]> {
    const cacheKey = `${use}:${algorithm.name}`;
    let derived = this.#derived.get(cacheKey);
    if (!derived) {
      derived = Promise.all(
        this.#keys.map(async (raw) => {
          const base = await crypto.subtle.importKey("raw", raw, "HKDF", false, ["deriveKey", "deriveBits"]);
          const hkdf = (info: string) => ({
            name: "HKDF",
            hash: "SHA-256",
            salt: new Uint8Array(0),
            info: encoder.encode(info),
          });
          const id = new Uint8Array(await crypto.subtle.deriveBits(hkdf(KEY_ID_INFO), base, KEY_ID_BYTES * 8));
          const key = await crypto.subtle.deriveKey(hkdf(`parley ${use}`), base, algorithm, false, usages);
          return { keyId: bytesToHex(id), key };
        }),
      );
      this.#derived.set(cacheKey, derived);
    }
    return derived;
  }
}
