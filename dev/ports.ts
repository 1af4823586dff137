/**
 * @module
 * Port helpers for the local stack: a free port for tests, a clear error when a fixed port is taken.
 */
import { createServer } from "node:net";

/** Asks the OS for a port nobody listens on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("could not get a free port"));
      });
    });
  });
}

/** Resolves when `port` can be bound on 127.0.0.1; rejects with a message that names the port and its use. */
export function assertPortFree(port: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (err: NodeJS.ErrnoException) => {
      reject(
        new Error(
          err.code === "EADDRINUSE"
            ? `port ${port} (${what}) is already in use: stop what runs there or choose another port`
            : `cannot listen on port ${port} (${what}): ${err.message}`,
        ),
      );
    });
    server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
  });
}
