/**
 * @module
 * Checks the `Upstash-Signature` of a QStash delivery with the current and the next signing key.
 */
import { Receiver } from "@upstash/qstash";

export interface SigningKeys {
  current: string;
  next: string;
}

/**
 * `url` is what we published to (PUBLIC_BASE_URL + path), not the URL the request arrived on, which a proxy or a
 * local tunnel may have rewritten: the signature's `sub` claim names the destination we asked for.
 */
export async function verifyQStashRequest(
  keys: SigningKeys,
  args: { signature: string | null; body: string; url: string },
): Promise<boolean> {
  if (!args.signature) return false;
  const receiver = new Receiver({ currentSigningKey: keys.current, nextSigningKey: keys.next });
  try {
    return await receiver.verify({ signature: args.signature, body: args.body, url: args.url });
  } catch {
    return false;
  }
}
