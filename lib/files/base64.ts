/**
 * @module
 * Bytes as base64 for a data URL, in pieces: one String.fromCharCode over megabytes of arguments would overflow
 * the stack.
 */

const PIECE = 0x8000;

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += PIECE) binary += String.fromCharCode(...bytes.subarray(at, at + PIECE));
  return btoa(binary);
}
