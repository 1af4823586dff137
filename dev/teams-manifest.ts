/**
 * @module
 * `npm run teams:manifest`: writes the Teams app package a person uploads (Teams → Apps → Manage your apps → Upload
 * an app, or the Developer Portal): a zip of `manifest.json` and its two icons ("App manifest schema", v1.17). The
 * manifest names the bot (TEAMS_APP_ID) in the scopes Parley serves (personal, team, groupChat), the
 * resource-specific consent permissions that let it receive a channel's or chat's every message
 * (`ChannelMessage.Read.Group`, `ChatMessage.Read.Chat`: without them Teams sends only what mentions the bot), and
 * the Worker's host as its valid domain. The icons are plain: a colour square (192×192) and a white outline on
 * transparency (32×32), as the schema asks; replace them before publishing.
 */
import { writeFileSync } from "node:fs";
import { z } from "zod";
import { encodeRgbaPng, encodeRgbPng } from "./files/png.ts";
import { zipStored } from "./files/zip.ts";
import { CommandError, defineCommand, parseCommandLine, requireSettings, runCommand } from "./cli.ts";

const MANIFEST_VERSION = "1.17";
const COLOR_ICON = { name: "color.png", size: 192, rgb: [0x46, 0x4e, 0xb8] as const };
const OUTLINE_ICON = { name: "outline.png", size: 32 };
/** Any string names the resource of an app that asks for RSC only (Microsoft's RSC samples use this one). */
const RSC_RESOURCE = "https://RscBasedStoreApp";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const TEAMS_MANIFEST_COMMAND = defineCommand({
  name: "npm run teams:manifest",
  summary:
    "Writes the Teams app package (manifest.json and its icons, zipped) for the bot TEAMS_APP_ID: scopes personal, " +
    "team and groupChat, the RSC permissions to receive every message, the Worker's host as valid domain.",
  options: {
    out: { type: "string", description: "where the zip goes (default teams-app.zip)", valueName: "path" },
  },
  settings: {
    TEAMS_APP_ID: "the bot's Microsoft app id (a GUID); required",
    PUBLIC_BASE_URL: "the Worker's public HTTPS URL; required",
    BOT_NAME: "the app's name in Teams (default Parley)",
    TEAMS_DEVELOPER_NAME: "who publishes it, as Teams shows it (default BOT_NAME)",
  },
  notes: ["Example: TEAMS_APP_ID=… PUBLIC_BASE_URL=https://parley.example.workers.dev npm run teams:manifest"],
});

const settingsSchema = z.object({
  TEAMS_APP_ID: z.string().regex(GUID, "must be the bot's Microsoft app id (a GUID)"),
  PUBLIC_BASE_URL: z.url({ protocol: /^https$/, error: "must be the Worker's HTTPS URL" }).transform((v) => new URL(v)),
  BOT_NAME: z.string().min(1).max(30).default("Parley"),
  TEAMS_DEVELOPER_NAME: z.string().min(1).max(32).optional(),
});

export function teamsManifest(env: Record<string, string | undefined>): Record<string, unknown> {
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  requireSettings(set, ["TEAMS_APP_ID", "PUBLIC_BASE_URL"]);
  const parsed = settingsSchema.safeParse(set);
  if (!parsed.success)
    throw new CommandError(parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`).join("; "));
  const s = parsed.data;
  const site = s.PUBLIC_BASE_URL.origin;
  return {
    $schema: `https://developer.microsoft.com/en-us/json-schemas/teams/v${MANIFEST_VERSION}/MicrosoftTeams.schema.json`,
    manifestVersion: MANIFEST_VERSION,
    version: "1.0.0",
    id: s.TEAMS_APP_ID,
    developer: {
      name: s.TEAMS_DEVELOPER_NAME ?? s.BOT_NAME,
      websiteUrl: site,
      privacyUrl: site,
      termsOfUseUrl: site,
    },
    name: { short: s.BOT_NAME, full: `${s.BOT_NAME}, a bot that joins a discussion when it is addressed` },
    description: {
      short: "Answers when addressed, follows the discussion, keeps quiet otherwise.",
      full:
        `${s.BOT_NAME} joins a channel's, chat's or 1:1 conversation when it is @mentioned, stays attentive while ` +
        "the discussion goes on, remembers what was said, and keeps quiet when a message is not for it.",
    },
    icons: { color: COLOR_ICON.name, outline: OUTLINE_ICON.name },
    accentColor: "#464EB8",
    bots: [
      {
        botId: s.TEAMS_APP_ID,
        scopes: ["personal", "team", "groupChat"],
        supportsFiles: true,
        isNotificationOnly: false,
      },
    ],
    permissions: ["identity", "messageTeamMembers"],
    validDomains: [s.PUBLIC_BASE_URL.host],
    webApplicationInfo: { id: s.TEAMS_APP_ID, resource: RSC_RESOURCE },
    authorization: {
      permissions: {
        resourceSpecific: [
          { name: "ChannelMessage.Read.Group", type: "Application" },
          { name: "ChatMessage.Read.Chat", type: "Application" },
        ],
      },
    },
  };
}

/** The outline icon: a white ring on transparency. */
function outlineIcon(): Buffer {
  const { size } = OUTLINE_ICON;
  const rgba = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const r = Math.hypot(x - size / 2 + 0.5, y - size / 2 + 0.5);
      if (r > size / 2 - 4 && r < size / 2 - 1) rgba.set([255, 255, 255, 255], (y * size + x) * 4);
    }
  return encodeRgbaPng(size, size, rgba);
}

/** The package's bytes: the same settings always make the same zip. */
export function teamsAppPackage(env: Record<string, string | undefined>): Buffer {
  const manifest = teamsManifest(env);
  const { size, rgb } = COLOR_ICON;
  const color = new Uint8Array(size * size * 3);
  for (let i = 0; i < size * size; i++) color.set(rgb, i * 3);
  return zipStored([
    { name: "manifest.json", data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
    { name: COLOR_ICON.name, data: encodeRgbPng(size, size, color) },
    { name: OUTLINE_ICON.name, data: outlineIcon() },
  ]);
}

if (import.meta.main) {
  const options = parseCommandLine(TEAMS_MANIFEST_COMMAND);
  await runCommand(TEAMS_MANIFEST_COMMAND.name, async () => {
    const out = options.out ?? "teams-app.zip";
    writeFileSync(out, teamsAppPackage(process.env));
    console.log(`Wrote ${out}: upload it in Teams (Apps → Manage your apps → Upload an app) or the Developer Portal.`);
  });
}
