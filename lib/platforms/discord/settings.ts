/**
 * @module
 * Discord's own settings. Interactions are on with the application id and its public key; the Gateway connection
 * (channel messages) and answers in channels need the bot token too. A malformed one turns Discord off and is named.
 */
import { optionalText, readSettings, text, url } from "../../settings-schema.ts";
import * as z from "../../zod.ts";
import type { PlatformSettings } from "../adapter.ts";

const shape = {
  DISCORD_APPLICATION_ID: optionalText,
  DISCORD_PUBLIC_KEY: optionalText.check(
    z.refine(
      (v) => v === undefined || /^[0-9a-f]{64}$/i.test(v),
      "must be the 64 hex characters of the application's public key",
    ),
  ),
  DISCORD_BOT_TOKEN: optionalText,
  DISCORD_API_BASE_URL: z._default(url, "https://discord.com/api/v10"),
  /** Where the Gateway connection goes (a local fake Gateway in tests); Discord's resume URLs take over after READY. */
  DISCORD_GATEWAY_URL: z._default(z.pipe(text, z.url({ protocol: /^wss?$/ })), "wss://gateway.discord.gg"),
};

export type DiscordSettings = { [K in keyof typeof shape]: z.output<(typeof shape)[K]> };

export const discordSettings: PlatformSettings<DiscordSettings> = {
  read: (env) => readSettings(shape, env, { essential: Object.keys(shape) as (keyof typeof shape)[] }),
  enabled: (s) => Boolean(s.DISCORD_APPLICATION_ID && s.DISCORD_PUBLIC_KEY),
  tokenSetting: "DISCORD_BOT_TOKEN",
  token: (s) => s.DISCORD_BOT_TOKEN,
};
