/**
 * @module
 * Values as the previous release sealed them (lib/secrets/seal.ts before values were bound to where they belong):
 * AES-GCM with only `v1.<key id>.<use>` authenticated beside the text. Installations stored before the deploy, and
 * jobs in flight at it, look like this.
 */
import { bytesToBase64url } from "../../lib/base64.ts";
import type { Keyring, KeyUse } from "../../lib/secrets/keyring.ts";

const IV_BYTES = 12;

export async function sealedAsBefore(keyring: Keyring, use: KeyUse, plaintext: string): Promise<string> {
  const [{ keyId, key }] = (await keyring.aesKeys(use)) as [{ keyId: string; key: CryptoKey }];
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const header = new TextEncoder().encode(`v1.${keyId}.${use}`);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: header },
      key,
      new TextEncoder().encode(plaintext),
    ),
  );
  return `v1.${keyId}.${bytesToBase64url(new Uint8Array([...iv, ...sealed]))}`;
}
