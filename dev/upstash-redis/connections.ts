/**
 * @module
 * The bridge's connections to redis-server: one shared connection for single commands and pipelines (Redis
 * answers them in order, and none of them change connection state), and a pool of dedicated connections, one per
 * transaction at a time, so concurrent MULTI…EXEC blocks never share a socket.
 */
import { RedisConnection } from "./connection.ts";

/** Idle transaction connections kept open for reuse; more are opened under load and closed when returned. */
const MAX_IDLE_TRANSACTION_CONNECTIONS = 8;

export class RedisConnections {
  readonly #redisUrl: string;
  #shared: RedisConnection | undefined;
  #openingShared: Promise<RedisConnection> | undefined;
  #idle: RedisConnection[] = [];
  #closed = false;

  constructor(redisUrl: string) {
    this.#redisUrl = redisUrl;
  }

  /** The shared connection, reopened if the previous one died (e.g. redis-server restarted). */
  async shared(): Promise<RedisConnection> {
    this.#assertOpen();
    if (this.#shared?.usable) return this.#shared;
    this.#openingShared ??= RedisConnection.open(this.#redisUrl)
      .then((connection) => (this.#shared = connection))
      .finally(() => (this.#openingShared = undefined));
    return this.#openingShared;
  }

  /** Runs `use` on a connection nobody else uses meanwhile, then returns it to the pool if still healthy. */
  async withDedicated<T>(use: (connection: RedisConnection) => Promise<T>): Promise<T> {
    this.#assertOpen();
    let connection = this.#idle.pop();
    while (connection && !connection.usable) connection = this.#idle.pop();
    connection ??= await RedisConnection.open(this.#redisUrl);
    try {
      return await use(connection);
    } finally {
      if (connection.usable && !this.#closed && this.#idle.length < MAX_IDLE_TRANSACTION_CONNECTIONS) {
        this.#idle.push(connection);
      } else {
        connection.close();
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const connection of this.#idle) connection.close();
    this.#idle = [];
    await this.#openingShared?.catch(() => undefined);
    this.#shared?.close();
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error("the redis bridge is closed");
  }
}
