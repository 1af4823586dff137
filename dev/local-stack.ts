/**
 * @module
 * The one builder of the local stack, for `npm run dev` (dev/start.ts), the test setup
 * (test/support/global-setup.ts) and the benches (bench/load/stack.ts, bench/latency/stack.ts): each part started on
 * the port asked for or a free one, and stopped with the stack, the last started first. Built by `buildStack`: a
 * start-up that fails stops what it had started. Disposable (`await stack[Symbol.asyncDispose]()`, or `stop()`); a
 * part that fails to stop does not keep the others running.
 */
import { type DiscordFakeOptions, type RunningDiscordFake, startDiscordFake } from "./fakes/discord.ts";
import {
  type DiscordGatewayFakeOptions,
  type RunningDiscordGatewayFake,
  startDiscordGatewayFake,
} from "./fakes/discord-gateway.ts";
import { freePort } from "./ports.ts";
import { type RunningRedis, startRedisServer } from "./redis-server.ts";

type Stoppable = { close(): Promise<unknown> } | { stop(): Promise<unknown> };
type WithPort<Options> = Omit<Options, "port"> & { port?: number };

/** Discord as the bot sees it: the REST fake and the Gateway fake it names, the bot's channel posts echoed. */
export interface DiscordPair {
  rest: RunningDiscordFake;
  gateway: RunningDiscordGatewayFake;
}

export class LocalStack implements AsyncDisposable {
  #stops: (() => Promise<unknown>)[] = [];

  /** Runs `stop` when the stack stops, before the parts started earlier. */
  keep(stop: () => Promise<unknown>): void {
    this.#stops.push(stop);
  }

  /**
   * Starts a part with the given options, on `port` or a free port, and stops it with the stack. A free port can be
   * taken by another process before the part binds it (tests run side by side): then it tries another.
   */
  async start<Options extends { port: number }, Part extends Stoppable>(
    startPart: (options: Options) => Promise<Part>,
    options: WithPort<Options>,
  ): Promise<Part> {
    if (options.port !== undefined) return this.add(() => startPart(options as Options));
    return this.add(() => onAFreePort((port) => startPart({ ...options, port } as Options)));
  }

  /** Starts a part that picks its own port, and stops it with the stack. */
  async add<Part extends Stoppable>(startPart: () => Promise<Part>): Promise<Part> {
    const part = await startPart();
    this.keep(() => ("close" in part ? part.close() : part.stop()));
    return part;
  }

  /** A private redis-server (never the machine's own). */
  async redisServer(port?: number): Promise<RunningRedis> {
    return this.add(() => (port === undefined ? onAFreePort(startRedisServer) : startRedisServer(port)));
  }

  /**
   * The Discord REST fake and its Gateway fake; the REST fake echoes the bot's channel posts through the Gateway, as
   * Discord does.
   */
  async discord(
    options: { rest?: WithPort<DiscordFakeOptions>; gateway?: WithPort<DiscordGatewayFakeOptions> } = {},
  ): Promise<DiscordPair> {
    const gateway = await this.start(startDiscordGatewayFake, options.gateway ?? {});
    const rest = await this.start(startDiscordFake, {
      ...options.rest,
      gatewayUrl: gateway.url,
      onChannelMessage: gateway.dispatchMessage,
    });
    gateway.onWritten(rest.rememberMessage);
    return { rest, gateway };
  }

  async stop(): Promise<void> {
    const stops = this.#stops.reverse();
    this.#stops = [];
    for (const stop of stops) await stopWithin(stop, PART_STOP_MS);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}

/**
 * How long one part may take to stop before the next is stopped anyway: a part that hangs (a worker whose dispose
 * never settles) must not keep the others, such as redis-server, running.
 */
const PART_STOP_MS = 15_000;

async function stopWithin(stop: () => Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  await Promise.race([stop().catch(() => {}), late]);
  clearTimeout(timer);
}

const FREE_PORT_ATTEMPTS = 5;

async function onAFreePort<Part>(startOn: (port: number) => Promise<Part>): Promise<Part> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort());
    } catch (err) {
      if (attempt >= FREE_PORT_ATTEMPTS || !/EADDRINUSE|already in use/.test(String(err))) throw err;
    }
  }
}

/** Runs `build` on a new stack; when it fails, what it had started is stopped before the error goes on. */
export async function buildStack<T>(build: (stack: LocalStack) => Promise<T>): Promise<T> {
  const stack = new LocalStack();
  try {
    return await build(stack);
  } catch (err) {
    await stack.stop();
    throw err;
  }
}
