/**
 * @module
 * Application routes of the Discord REST fake (Bot token): the bulk overwrite of commands (global or per guild)
 * and `GET /gateway/bot`, which answers with what the Gateway fake recommends (its `GET /__gateway_bot`: shard
 * count, `max_concurrency`, IDENTIFYs left) when `gatewayUrl` is a local `ws://` fake, and one shard otherwise.
 */
import { sendInvalidFormBody } from "./errors.ts";
import type { DiscordRoute, RouteContext } from "./route.ts";

const IDENTIFY_BUDGET = 1_000;
const DAY_MS = 86_400_000;
const GATEWAY_LOOKUP_TIMEOUT_MS = 2_000;

export function matchAppRoute(ctx: RouteContext, gatewayUrl: string | undefined): DiscordRoute | undefined {
  const { method, path, body } = ctx;
  if (method === "PUT" && path[0] === "applications" && path[1] && path.at(-1) === "commands") {
    const applicationId = path[1];
    const guildId = path[2] === "guilds" ? path[3] : undefined;
    return {
      name: "register_commands",
      resource: applicationId,
      needsBot: true,
      fields: { applicationId, ...(guildId ? { guildId } : {}) },
      run(res) {
        if (!Array.isArray(body.__array))
          return void sendInvalidFormBody(res, "_root", "ARRAY_TYPE_CONVERT", "Must be an array.");
        const commands = (body.__array as Record<string, unknown>[]).map((c) => ({
          ...c,
          id: ctx.nextId(),
          application_id: applicationId,
          version: ctx.nextId(),
        }));
        ctx.record({ route: "register_commands", applicationId, ...(guildId ? { guildId } : {}), commands });
        return { status: 200, body: commands };
      },
    };
  }
  if (method === "GET" && path.join("/") === "gateway/bot") {
    return {
      name: "gateway_bot",
      resource: "gateway",
      needsBot: true,
      fields: {},
      run: async () => ({ status: 200, body: await gatewayBot(gatewayUrl) }),
    };
  }
  return undefined;
}

async function gatewayBot(gatewayUrl: string | undefined): Promise<Record<string, unknown>> {
  const url = gatewayUrl ?? "wss://gateway.discord.gg";
  if (url.startsWith("ws://")) {
    try {
      const res = await fetch(`${url.replace(/^ws:/, "http:").replace(/\/$/, "")}/__gateway_bot`, {
        signal: AbortSignal.timeout(GATEWAY_LOOKUP_TIMEOUT_MS),
      });
      if (res.ok) return { ...((await res.json()) as Record<string, unknown>), url };
    } catch {
      // The Gateway fake is not running: answer as a one-shard bot.
    }
  }
  return {
    url,
    shards: 1,
    session_start_limit: {
      total: IDENTIFY_BUDGET,
      remaining: IDENTIFY_BUDGET,
      reset_after: DAY_MS,
      max_concurrency: 1,
    },
  };
}
