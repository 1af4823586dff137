/**
 * @module
 * The Discord Gateway fake for tests and `npm run dev` (the code is in ./discord-gateway/): HELLO, IDENTIFY
 * (sharded or not) → READY and GUILD_CREATEs, heartbeats and ACKs, RESUME with replay → RESUMED, INVALID_SESSION,
 * the close codes Discord uses (4004, 4010, 4011, 4013 invalid intents, 4014 disallowed intents), only the events the
 * session's intents ask for (./discord-gateway/intents.ts), GUILD_DELETE, and a resume URL that can be made dead.
 * Control routes on the same port: see ./discord-gateway/control.ts (`POST /__message`, `/__reconnect`,
 * `/__invalid_session`, `/__guilds`, `/__config`, `GET /__state`, ...).
 * Standalone: `node dev/fakes/discord-gateway.ts` (DISCORD_GATEWAY_FAKE_PORT, default 8094).
 */
import { serveStandalone } from "../serve-standalone.ts";
import { startDiscordGatewayFake } from "./discord-gateway/server.ts";

export {
  startDiscordGatewayFake,
  type DiscordGatewayFakeOptions,
  type RunningDiscordGatewayFake,
} from "./discord-gateway/server.ts";

const DEFAULT_DISCORD_GATEWAY_FAKE_PORT = 8094;

/** What `GET /__state` answers. */
export interface GatewayFakeState {
  connections: number;
  identifies: number;
  resumes: number;
  heartbeats: number;
  identifyRateLimited: number;
  connected: boolean;
  sessionId: string | null;
  seq: number;
  shards: { shard: [number, number]; sessionId: string; connected: boolean; seq: number }[];
  guilds: number;
  undelivered: number;
  closes: { at: number; code: number; reason: string; shard?: [number, number] }[];
}

if (import.meta.main) {
  serveStandalone("discord_gateway_fake", () =>
    startDiscordGatewayFake({
      port: Number(process.env.DISCORD_GATEWAY_FAKE_PORT ?? DEFAULT_DISCORD_GATEWAY_FAKE_PORT),
    }),
  );
}
