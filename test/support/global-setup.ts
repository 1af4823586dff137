/**
 * @module
 * Starts the local stack once for the whole test run: a private redis-server on a free port (never the machine's own),
 * and hands its address to the tests through `inject`.
 */
import type { TestProject } from "vitest/node";
import { freePort } from "../../dev/ports.ts";
import { startRedisServer } from "../../dev/redis-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = await startRedisServer(await freePort());
  project.provide("redisUrl", redis.url);
  return async () => {
    await redis.stop();
  };
}
