/**
 * @module
 * `npm run discord:register`: registers the bot's application commands (lib/platforms/discord/commands.ts) with
 * Discord's bulk overwrite: globally, or for one guild (instant, good while developing) when DISCORD_GUILD_ID is
 * set. Reads DISCORD_APPLICATION_ID, DISCORD_BOT_TOKEN, BOT_NAME, and DISCORD_API_BASE_URL (defaults to Discord).
 * A bulk overwrite replaces ALL of the application's commands in that scope: commands not declared here are removed.
 */
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { discordCommands } from "../lib/platforms/discord/commands.ts";
import { discordRequest } from "../lib/platforms/discord/rest.ts";

const DEFAULT_API_BASE_URL = "https://discord.com/api/v10";

const envSchema = z.object({
  DISCORD_APPLICATION_ID: z.string().regex(/^\d+$/, "must be the numeric application id"),
  DISCORD_BOT_TOKEN: z.string().min(1, "is not set"),
  DISCORD_GUILD_ID: z.string().regex(/^\d+$/, "must be a numeric guild id").optional(),
  DISCORD_API_BASE_URL: z.url().default(DEFAULT_API_BASE_URL).transform((v) => v.replace(/\/+$/, "")),
  BOT_NAME: z.string().trim().min(1).default("Parley"),
});

const registeredSchema = z.array(z.looseObject({ id: z.string(), name: z.string(), type: z.number() }));

export interface Registration {
  scope: string;
  commands: { id: string; name: string; type: number }[];
}

export async function registerDiscordCommands(env: Record<string, string | undefined>): Promise<Registration> {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== "")));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`).join("; ");
    throw new Error(`cannot register Discord commands: ${problems}`);
  }
  const s = parsed.data;
  const scope = s.DISCORD_GUILD_ID ? `guild ${s.DISCORD_GUILD_ID}` : "global";
  const path = s.DISCORD_GUILD_ID
    ? `/applications/${s.DISCORD_APPLICATION_ID}/guilds/${s.DISCORD_GUILD_ID}/commands`
    : `/applications/${s.DISCORD_APPLICATION_ID}/commands`;
  const answer = await discordRequest({
    apiBaseUrl: s.DISCORD_API_BASE_URL,
    method: "PUT",
    path,
    what: `register ${scope} commands`,
    botToken: s.DISCORD_BOT_TOKEN,
    body: discordCommands(s.BOT_NAME),
  });
  return { scope, commands: registeredSchema.parse(answer).map(({ id, name, type }) => ({ id, name, type })) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const { scope, commands } = await registerDiscordCommands(process.env);
    console.log(`Registered ${commands.length} ${scope} command(s) (bulk overwrite):`);
    for (const c of commands) console.log(`  ${c.type === 1 ? "/" : "⋯ "}${c.name}  (id ${c.id})`);
    if (scope === "global") console.log("Global commands can take a while to show up in every client.");
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
