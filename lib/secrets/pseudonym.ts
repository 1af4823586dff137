/**
 * @module
 * Keyed pseudonyms for ids that are personal data (phone numbers) in log lines and queue headers, and apart, under a
 * sub-key of their own, in what an HTTP tool's endpoint receives (lib/tools/http-tool.ts): HMAC-SHA-256 under the
 * keyring's sub-key for that use, truncated. The same id always gets the same pseudonym under one key, so log
 * lines of one person still line up; without the key nobody can go back from a pseudonym to the number, or test
 * guesses against it. A new TOKEN_ENCRYPTION_KEY gives new pseudonyms.
 */
import { bytesToHex } from "../crypto.ts";
import type { Keyring, KeyUse } from "./keyring.ts";

/** 64 bits: no two of a deployment's people share one in practice. */
const PSEUDONYM_BYTES = 8;
const PREFIX = "p-";
const encoder = new TextEncoder();

export class Pseudonyms {
  readonly #keyring: Keyring;
  readonly #use: KeyUse;

  /** `use`: a log's pseudonyms never match a tool endpoint's, so neither can line the other's up. */
  constructor(keyring: Keyring, use: Extract<KeyUse, "log-pseudonym" | "tool-pseudonym"> = "log-pseudonym") {
    this.#keyring = keyring;
    this.#use = use;
  }

  /** `p-` and 16 hex digits. */
  async of(id: string): Promise<string> {
    const { key } = await this.#keyring.hmacKey(this.#use);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(id)));
    return PREFIX + bytesToHex(mac.subarray(0, PSEUDONYM_BYTES));
  }
}
