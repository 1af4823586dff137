/**
 * @module
 * One TCP connection to redis-server speaking RESP2. Commands written together go out in one write, so nothing
 * from another caller can land between them on this socket; replies come back in order.
 */
import { connect, type Socket } from "node:net";
import { encodeCommand, ReplyReader, RedisErrorReply, type RedisReply } from "./resp.ts";

const CONNECT_TIMEOUT_MS = 5_000;

interface ReplyWaiter {
  resolve(reply: RedisReply): void;
  reject(err: Error): void;
}

export class RedisConnection {
  readonly #socket: Socket;
  readonly #reader = new ReplyReader();
  #waiters: ReplyWaiter[] = [];
  #closedBy: Error | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.#onData(chunk));
    socket.on("error", (err) => this.#fail(err));
    socket.on("close", () => this.#fail(new Error("redis connection closed")));
  }

  /** Connects to `redis://[user:password@]host:port[/db]`, authenticating and selecting the database if given. */
  static async open(redisUrl: string): Promise<RedisConnection> {
    const url = new URL(redisUrl);
    const socket = connect({ host: url.hostname || "127.0.0.1", port: Number(url.port || 6379) });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => socket.destroy(new Error(`redis at ${url.host} did not accept a connection`)),
        CONNECT_TIMEOUT_MS,
      );
      socket.once("connect", () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    const connection = new RedisConnection(socket);
    const setup: string[][] = [];
    if (url.password)
      setup.push(
        url.username
          ? ["AUTH", decodeURIComponent(url.username), decodeURIComponent(url.password)]
          : ["AUTH", decodeURIComponent(url.password)],
      );
    const db = url.pathname.slice(1);
    if (db) setup.push(["SELECT", db]);
    if (setup.length > 0) {
      const replies = await connection.send(setup.map((args) => args.map((a) => Buffer.from(a))));
      const failure = replies.find((r) => r instanceof RedisErrorReply);
      if (failure instanceof RedisErrorReply) {
        connection.close();
        throw new Error(`redis refused the connection setup: ${failure.message}`);
      }
    }
    return connection;
  }

  /** False once the socket has failed or closed; such a connection must be replaced. */
  get usable(): boolean {
    return this.#closedBy === undefined;
  }

  /** Sends the commands in one write and resolves with one reply per command (error replies included). */
  send(commands: readonly (readonly Buffer[])[]): Promise<RedisReply[]> {
    if (this.#closedBy) return Promise.reject(this.#closedBy);
    const replies = commands.map(
      () => new Promise<RedisReply>((resolve, reject) => this.#waiters.push({ resolve, reject })),
    );
    this.#socket.write(Buffer.concat(commands.map(encodeCommand)));
    return Promise.all(replies);
  }

  close(): void {
    this.#fail(new Error("redis connection closed by the bridge"));
  }

  #onData(chunk: Buffer): void {
    let replies: RedisReply[];
    try {
      replies = this.#reader.push(chunk);
    } catch (err) {
      this.#fail(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    for (const reply of replies) this.#waiters.shift()?.resolve(reply);
  }

  #fail(err: Error): void {
    if (this.#closedBy) return;
    this.#closedBy = err;
    this.#socket.destroy();
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) waiter.reject(err);
  }
}
