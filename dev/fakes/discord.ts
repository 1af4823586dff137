/**
 * @module
 * The Discord REST fake for tests and `npm run dev` (the code is in ./discord/), under `/api/v10` like the real
 * one: interaction webhooks (edit and read `@original`, follow-ups and their edits; only for an interaction whose
 * acknowledgement Discord got, for its 15 minutes: whoever plays Discord reports it, ./discord/interaction-answers.ts),
 * channel messages (Bot token, `enforce_nonce`, edits, the typing indicator, reading and listing, each with the bot's
 * permissions in the channel), the bulk overwrite of application commands, `GET /gateway/bot`, with per-route rate
 * limits and Discord's errors. `GET /__calls` lists what was accepted (each with `route` and
 * `at`); `/__fail` `{route, status: 429, retryAfter}` answers Discord's JSON 429, `error: "cloudflare"` a non-JSON
 * one, any other `error` is a Discord JSON error code (see ./faults.ts and ./control.ts for the other faults).
 * Standalone: `node dev/fakes/discord.ts` (DISCORD_FAKE_PORT, default 8092).
 */
import { serveStandalone } from "../serve-standalone.ts";
import { startDiscordFake } from "./discord/server.ts";

export { startDiscordFake, type DiscordFakeOptions, type RunningDiscordFake } from "./discord/server.ts";
export { DISCORD_FAKE_BOT, type PostedChannelMessage } from "./discord/messages.ts";
export type { RecordedDiscordCall } from "./discord/route.ts";

const DEFAULT_DISCORD_FAKE_PORT = 8092;

if (import.meta.main) {
  serveStandalone("discord_fake", () =>
    startDiscordFake({ port: Number(process.env.DISCORD_FAKE_PORT ?? DEFAULT_DISCORD_FAKE_PORT) }),
  );
}
