/**
 * @module
 * The bridge's one connection to redis-server, through ioredis. Commands go as the REST client sent them, their
 * name upper-cased: ioredis keys its argument and reply rewrites (HSET from an object, HGETALL to an object, …) by
 * lower-case name, so none of them touches a command of ours. Replies come back raw: bulk and status strings as
 * Buffers (binary values survive until the HTTP layer encodes them), integers as numbers, nil as null, arrays
 * nested, and an error reply as a value, since inside EXEC or a pipeline it is one result among others. Commands
 * sent together are written in order within one turn of the event loop, so nothing from another request lands
 * between a transaction's MULTI and its EXEC.
 */
import { Command, Redis, ReplyError } from "ioredis";

/** An error reply (`-ERR …`). */
export type RedisErrorReply = Error;
export type RedisReply = Buffer | number | null | RedisErrorReply | RedisReply[];

const ErrorReply: new (...args: never[]) => Error = ReplyError;

export function isErrorReply(reply: RedisReply | undefined): reply is RedisErrorReply {
  return reply instanceof ErrorReply;
}

export class RedisLink {
  readonly #redis: Redis;

  private constructor(redis: Redis) {
    this.#redis = redis;
  }

  /** Connects to `redis://[user:password@]host:port[/db]`, authenticating and selecting the database if given. */
  static async open(redisUrl: string): Promise<RedisLink> {
    const redis = new Redis(redisUrl, {
      lazyConnect: true,
      // A command while redis-server is away fails at once (the request answers 500), as Upstash's would, instead
      // of waiting for the reconnect; ioredis reconnects by itself.
      enableOfflineQueue: false,
      // Nothing of our own (INFO, CLIENT SETINFO) in redis-server's command statistics: bench/load counts them.
      enableReadyCheck: false,
      disableClientInfo: true,
      // RESP2, as Upstash speaks it: under RESP3 (ioredis's default) Redis answers some commands in other shapes
      // (ZRANGE … WITHSCORES as pairs of a member and a double).
      protocol: 2,
    });
    // A lost connection shows in the requests that fail meanwhile (logged by the bridge); ioredis reconnects.
    redis.on("error", () => {});
    try {
      await redis.connect();
    } catch (err) {
      redis.disconnect();
      throw new Error(`redis refused the connection: ${err instanceof Error ? err.message : String(err)}`);
    }
    return new RedisLink(redis);
  }

  /** Sends the commands in order and resolves with one reply per command (error replies included). */
  send(commands: readonly (readonly Buffer[])[]): Promise<RedisReply[]> {
    return Promise.all(
      commands.map(([name, ...args]) => {
        const command = new Command(String(name ?? "").toUpperCase(), args, { replyEncoding: null });
        void this.#redis.sendCommand(command);
        return command.promise.then(
          (reply) => reply as RedisReply,
          (err: unknown) => {
            if (err instanceof ErrorReply) return err;
            throw err;
          },
        );
      }),
    );
  }

  close(): void {
    this.#redis.disconnect();
  }
}
