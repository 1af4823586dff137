/**
 * @module
 * The Gateway connection's ways in: a Workers outbound WebSocket, opened through fetch, and a fingerprint of the bot
 * token that tells tokens apart in the stored session without keeping anything usable of them.
 */
import { bytesToHex } from "../../../crypto.ts";

const FINGERPRINT_HEX_CHARS = 16;

/**
 * The Workers way to open an outbound WebSocket: an HTTP upgrade through fetch. Unlike the constructor, a refused
 * connection is a rejected promise we can catch, and the socket is open once accepted.
 */
export async function openSocketWithFetch(url: string): Promise<WebSocket> {
  const response = await fetch(url.replace(/^ws/, "http"), { headers: { Upgrade: "websocket" } });
  const socket = (response as Response & { webSocket?: WebSocket & { accept(): void } }).webSocket;
  if (!socket) {
    await response.body?.cancel();
    throw new Error(`the Gateway answered HTTP ${response.status} instead of upgrading`);
  }
  socket.accept();
  return socket;
}

/** Enough of the token's SHA-256 to tell tokens apart; says nothing usable about the token. */
export async function tokenFingerprint(token: string): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)))).slice(
    0,
    FINGERPRINT_HEX_CHARS,
  );
}
