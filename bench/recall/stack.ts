/**
 * @module
 * The bench's own local stack on free ports: a private redis-server and a hybrid Upstash Vector stand-in, with a
 * count of the Vector requests it receives.
 */
import { freePort } from "../../dev/ports.ts";
import { startRedisServer } from "../../dev/redis-server.ts";
import { startVectorStandIn } from "../../dev/upstash-vector/server.ts";

export interface BenchStack {
  url: string;
  token: string;
  /** Vector requests received so far, by command. */
  requests: Map<string, number>;
  stop(): Promise<void>;
}

export async function startBenchStack(): Promise<BenchStack> {
  const redis = await startRedisServer(await freePort());
  const requests = new Map<string, number>();
  try {
    const vector = await startVectorStandIn({
      port: await freePort(),
      redisUrl: redis.url,
      indexType: "HYBRID",
      keyPrefix: "bench-recall:",
      onRequest: (command) => requests.set(command, (requests.get(command) ?? 0) + 1),
    });
    return {
      url: vector.url,
      token: vector.token,
      requests,
      async stop() {
        await vector.close();
        await redis.stop();
      },
    };
  } catch (err) {
    await redis.stop();
    throw err;
  }
}

export function totalRequests(requests: Map<string, number>): number {
  return [...requests.values()].reduce((a, b) => a + b, 0);
}
