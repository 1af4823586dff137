/**
 * @module
 * How long the local servers (the fakes, the stand-ins, the bridge, the test taps) keep an idle connection open.
 * Node closes one after 5 s by default; workerd and undici keep theirs longer and may send the next request on a
 * socket the server is closing at that moment, which workerd reports as "Network connection lost" (seen on a busy
 * machine, where a request waits longer for its turn). Holding sockets longer than any client does closes that gap.
 */
import type { Server } from "node:http";

export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** `server`, keeping idle connections longer than its clients do; headers may take as long (Node wants it longer). */
export function keepIdleConnections<S extends Server>(server: S): S {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  return server;
}
