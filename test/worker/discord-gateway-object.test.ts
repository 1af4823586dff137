import {
  createExecutionContext,
  createScheduledController,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import worker, { DiscordGateway } from "../../functions/index.ts";
import type { PendingIngest } from "../../lib/platforms/discord/gateway/ingest-retries.ts";
import { discordCalls, snowflake } from "../support/discord.ts";
import { eventually, startJobPump, suiteEnv } from "../support/worker.ts";

const bindings = env as unknown as Record<string, unknown>;
const namespace = bindings.DISCORD_GATEWAY as DurableObjectNamespace;
const ensure = (target: { fetch(request: Request): Promise<Response> }) =>
  target
    .fetch(new Request("https://discord-gateway/ensure", { method: "POST" }))
    .then((r) => r.json() as Promise<Record<string, unknown>>);

describe("the DiscordGateway Durable Object", () => {
  it("connects to nothing without DISCORD_BOT_TOKEN", async () => {
    expect(bindings.DISCORD_BOT_TOKEN).toBeUndefined();
    const stub = namespace.get(namespace.idFromName("gateway"));
    expect(await ensure(stub)).toEqual({ phase: "disabled" });
  });

  it("is left alone by the cron trigger without a token", async () => {
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), bindings, ctx);
    await waitOnExecutionContext(ctx);
    expect(await ensure(namespace.get(namespace.idFromName("gateway")))).toEqual({ phase: "disabled" });
  });

  it("with a token starts identifying against DISCORD_GATEWAY_URL and keeps its state in storage", async () => {
    const logs = vi.spyOn(console, "log");
    const stub = namespace.get(namespace.idFromName("with-token"));
    await runInDurableObject(stub, async (_instance, state) => {
      // Nothing listens on port 9: the object must try, and keep trying, without throwing.
      const gateway = new DiscordGateway(state, {
        ...bindings,
        DISCORD_BOT_TOKEN: "token",
        DISCORD_GATEWAY_URL: "ws://127.0.0.1:9",
      });
      expect((await ensure(gateway)).phase).not.toBe("disabled");
      await eventually(async () => (await state.storage.get("snapshot")) !== undefined, 5_000, "the stored snapshot");
      const connecting = logs.mock.calls
        .map((c) => String(c[0]))
        .filter((l) => l.includes('"event":"discord_gateway_connecting"'));
      expect(connecting[0]).toContain('"mode":"identify"');
    });
    logs.mockRestore();
  });

  it("as the coordinator, hands out IDENTIFY turns: one per concurrency bucket at a time, other buckets at once", async () => {
    const stub = namespace.get(namespace.idFromName("turns-test"));
    const turn = (shard: number) =>
      stub
        .fetch(new Request(`https://discord-gateway/identify-turn?shard=${shard}&concurrency=2`, { method: "POST" }))
        .then((r) => r.json() as Promise<{ waitMs: number }>);
    const [first, sameBucket, otherBucket] = [await turn(0), await turn(2), await turn(1)];
    expect(first.waitMs).toBe(0);
    expect(sameBucket.waitMs).toBeGreaterThan(5_000);
    expect(otherBucket.waitMs).toBe(0);
  });

  it("ingests, when its alarm fires, a message its storage kept after a failed try, and the message is answered once", async () => {
    const suite = "gatewayobject";
    const testEnv = suiteEnv(suite, { DISCORD_BOT_TOKEN: "test-discord-bot-token" });
    const botUserId = snowflake();
    const channelId = snowflake();
    const data = {
      id: snowflake(),
      channel_id: channelId,
      guild_id: snowflake(),
      type: 0,
      content: `<@${botUserId}> are you still there?`,
      timestamp: new Date().toISOString(),
      author: { id: snowflake(), username: "alice", global_name: "Alice" },
      member: { nick: null, roles: [] },
      mentions: [{ id: botUserId, username: "parley" }],
      referenced_message: null,
    };
    const pump = startJobPump(testEnv, suite);
    try {
      const stub = namespace.get(namespace.idFromName(`retry-${channelId}`));
      await runInDurableObject(stub, async (_instance, state) => {
        const entry: PendingIngest = { id: "kept", data, botUserId, attempts: 1, nextAt: Date.now() - 1 };
        await state.storage.put(`ingest:${entry.id}`, entry);
        await new DiscordGateway(state, testEnv).alarm();
        expect([...(await state.storage.list({ prefix: "ingest:" })).keys()]).toEqual([]);
      });
      const api = String(testEnv.DISCORD_API_BASE_URL);
      const [answer] = await eventually(
        async () => {
          const posted = await discordCalls(api, { route: "channel_message", channelId });
          return posted.length === 1 && posted;
        },
        15_000,
        "the answer",
      );
      expect(answer!.message_reference).toMatchObject({ message_id: data.id });
    } finally {
      await pump.stop();
    }
  });
});
