/**
 * @module
 * The Gateway connection's ways in: a Workers outbound WebSocket, opened through fetch, its events read as the
 * session's inputs, and a fingerprint of the bot token that tells tokens apart in the stored session without
 * keeping anything usable of them.
 */
import { bytesToHex } from "../../../crypto.ts";
import { type GatewayPayload, payloadSchema } from "./protocol.ts";

const FINGERPRINT_HEX_CHARS = 16;
const SOCKET_OPEN = 1;

/** What one socket's events mean to the connection that opened it. */
export interface SocketListener {
  opened(): void;
  /** Any frame at all, readable or not: the socket is alive (the handshake timer stops). */
  heard(): void;
  received(payload: GatewayPayload): void;
  /** A frame that is not JSON or not a Gateway payload: dropped. */
  unreadable(): void;
  closed(code: number): void;
  errored(): void;
}

/** A socket handed over already open (fetch's upgrade) counts as opened at once. */
export function listenToSocket(socket: WebSocket, listener: SocketListener): void {
  if (socket.readyState === SOCKET_OPEN) listener.opened();
  else socket.addEventListener("open", () => listener.opened());
  socket.addEventListener("message", (event) => {
    listener.heard();
    let payload: GatewayPayload;
    try {
      payload = payloadSchema.parse(JSON.parse(String(event.data)));
    } catch {
      listener.unreadable();
      return;
    }
    listener.received(payload);
  });
  socket.addEventListener("close", (event) => listener.closed(event.code));
  socket.addEventListener("error", () => listener.errored());
}

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
