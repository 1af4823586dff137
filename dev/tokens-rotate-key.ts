/**
 * @module
 * `npm run tokens:rotate-key`: re-encrypts every stored installation under TOKEN_ENCRYPTION_KEY, after a key
 * rotation (the old key in TOKEN_ENCRYPTION_PREVIOUS_KEYS). Run with the environment's settings exported:
 *   UPSTASH_REDIS_REST_URL=… UPSTASH_REDIS_REST_TOKEN=… REDIS_KEY_PREFIX=… \
 *   TOKEN_ENCRYPTION_KEY=<new> TOKEN_ENCRYPTION_PREVIOUS_KEYS=<old> npm run tokens:rotate-key
 * Prints how many installations it read and re-encrypted; never a token.
 */
import { Redis } from "@upstash/redis";
import { Keyring } from "../lib/secrets/keyring.ts";
import { Sealer } from "../lib/secrets/seal.ts";
import { resealInstallations } from "../lib/tenants/rekey.ts";
import { defineCommand, parseCommandLine, requireSettings, runCommand } from "./cli.ts";

const command = defineCommand({
  name: "npm run tokens:rotate-key",
  summary:
    "Re-encrypts every stored installation (Slack workspaces installed through OAuth) under TOKEN_ENCRYPTION_KEY, " +
    "after a key rotation; prints how many it read and re-encrypted, never a token.",
  settings: {
    UPSTASH_REDIS_REST_URL: "the environment's Upstash Redis REST URL (required)",
    UPSTASH_REDIS_REST_TOKEN: "its REST token (required)",
    TOKEN_ENCRYPTION_KEY: "the new key (required)",
    TOKEN_ENCRYPTION_PREVIOUS_KEYS: "the older keys, comma-separated, to open what they sealed",
    REDIS_KEY_PREFIX: "the bot's key prefix (parley)",
  },
});

parseCommandLine(command);
await runCommand(command.name, async () => {
  const env = process.env;
  const required = requireSettings(env, ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "TOKEN_ENCRYPTION_KEY"]);
  const previous = (env.TOKEN_ENCRYPTION_PREVIOUS_KEYS ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
  const sealer = new Sealer(new Keyring(required.TOKEN_ENCRYPTION_KEY, previous), "stored-token");
  const redis = new Redis({ url: required.UPSTASH_REDIS_REST_URL, token: required.UPSTASH_REDIS_REST_TOKEN });
  const { seen, resealed, refused } = await resealInstallations(redis, env.REDIS_KEY_PREFIX || "parley", sealer);
  console.log(
    `installations: ${seen} read, ${resealed} re-encrypted under the current key, ${refused} refused (not their key's tenant's)`,
  );
});
