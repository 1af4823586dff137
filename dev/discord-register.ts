/**
 * @module
 * `npm run discord:register`: registers the bot's application commands (lib/platforms/discord/commands.ts) with
 * Discord's bulk overwrite: globally, or for one guild (instant, good while developing) when DISCORD_GUILD_ID is
 * set. A bulk overwrite replaces ALL of the application's commands in that scope: commands not declared here are
 * removed.
 */
import { z } from "zod";
import { discordCommands } from "../lib/platforms/discord/commands.ts";
import { discordRequest } from "../lib/platforms/discord/rest.ts";
import { CommandError, defineCommand, parseCommandLine, requireSettings, runCommand } from "./cli.ts";

const DEFAULT_API_BASE_URL = "https://discord.com/api/v10";

export const DISCORD_REGISTER_COMMAND = defineCommand({
  name: "npm run discord:register",
  summary:
    'Registers /ask, /forget, /parley (a channel\'s settings, for those who may manage it) and the message command "Ask <BOT_NAME> about this" with Discord (a bulk overwrite: ' +
    "the application's other commands in that scope are removed). Global commands can take a while to appear; " +
    "one guild's appear at once.",
  settings: {
    DISCORD_APPLICATION_ID: "the application's numeric id (developer portal → General Information); required",
    DISCORD_BOT_TOKEN: "the bot's token (developer portal → Bot); required",
    DISCORD_GUILD_ID: "register for this one server only (numeric id); global when unset",
    BOT_NAME: "the name in the message command (default Parley)",
    DISCORD_API_BASE_URL: `where Discord's API is (default ${DEFAULT_API_BASE_URL})`,
  },
  notes: ["Example: DISCORD_GUILD_ID=… DISCORD_APPLICATION_ID=… DISCORD_BOT_TOKEN=… npm run discord:register"],
});

const formatSchema = z.object({
  DISCORD_APPLICATION_ID: z.string().regex(/^\d+$/, "must be the numeric application id"),
  DISCORD_BOT_TOKEN: z.string(),
  DISCORD_GUILD_ID: z.string().regex(/^\d+$/, "must be a numeric guild id").optional(),
  DISCORD_API_BASE_URL: z
    .url("must be a URL like https://discord.com/api/v10")
    .default(DEFAULT_API_BASE_URL)
    .transform((v) => v.replace(/\/+$/, "")),
  BOT_NAME: z.string().trim().min(1).default("Parley"),
});

const registeredSchema = z.array(z.looseObject({ id: z.string(), name: z.string(), type: z.number() }));

export interface Registration {
  scope: string;
  commands: { id: string; name: string; type: number }[];
}

export async function registerDiscordCommands(env: Record<string, string | undefined>): Promise<Registration> {
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  requireSettings(set, ["DISCORD_APPLICATION_ID", "DISCORD_BOT_TOKEN"]);
  const parsed = formatSchema.safeParse(set);
  if (!parsed.success)
    throw new CommandError(parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`).join("; "));
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

if (import.meta.main) {
  parseCommandLine(DISCORD_REGISTER_COMMAND);
  await runCommand(DISCORD_REGISTER_COMMAND.name, async () => {
    const { scope, commands } = await registerDiscordCommands(process.env);
    console.log(`Registered ${commands.length} ${scope} command(s) (bulk overwrite):`);
    for (const c of commands) console.log(`  ${c.type === 1 ? "/" : "⋯ "}${c.name}  (id ${c.id})`);
    if (scope === "global") console.log("Global commands can take a while to show up in every client.");
  });
}
