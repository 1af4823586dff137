/**
 * @module
 * `npm run telegram:set-webhook`: points the bot's updates at the Worker. Calls `getMe` (checks the token, and that
 * TELEGRAM_BOT_USERNAME is the bot's), then `setWebhook` with `${PUBLIC_BASE_URL}/telegram/webhook`, the secret
 * token Telegram will send in `X-Telegram-Bot-Api-Secret-Token`, and the updates Parley reads (`message`,
 * `message_reaction`, `my_chat_member`: reactions come only to a bot that asks for them, and that is an admin).
 */
import { z } from "zod";
import { callTelegram } from "../lib/platforms/telegram/api.ts";
import { ALLOWED_UPDATES } from "../lib/platforms/telegram/parse.ts";
import { BOT_TOKEN, WEBHOOK_SECRET } from "../lib/platforms/telegram/settings.ts";
import { CommandError, defineCommand, parseCommandLine, requireSettings, runCommand } from "./cli.ts";

const DEFAULT_API_BASE_URL = "https://api.telegram.org";
export const WEBHOOK_PATH = "/telegram/webhook";

export const TELEGRAM_SET_WEBHOOK_COMMAND = defineCommand({
  name: "npm run telegram:set-webhook",
  summary:
    "Points the Telegram bot's updates at the Worker: checks the token with getMe, then calls setWebhook with " +
    `PUBLIC_BASE_URL${WEBHOOK_PATH}, the secret token and the updates Parley reads (${ALLOWED_UPDATES.join(", ")}).`,
  settings: {
    TELEGRAM_BOT_TOKEN: "the bot's token from @BotFather; required",
    TELEGRAM_WEBHOOK_SECRET:
      "1-256 of A-Z, a-z, 0-9, _ and - (e.g. `openssl rand -hex 32`), the same as the Worker's; required",
    PUBLIC_BASE_URL: "the Worker's public HTTPS URL; required",
    TELEGRAM_BOT_USERNAME: "the bot's username, as the Worker has it: checked against getMe's",
    TELEGRAM_API_BASE_URL: `where the Bot API is (default ${DEFAULT_API_BASE_URL})`,
  },
  notes: [
    "Example: TELEGRAM_BOT_TOKEN=… TELEGRAM_WEBHOOK_SECRET=… PUBLIC_BASE_URL=https://parley.example.workers.dev npm run telegram:set-webhook",
  ],
});

const settingsSchema = z.object({
  TELEGRAM_BOT_TOKEN: z.string().regex(BOT_TOKEN, "must be the token @BotFather gave"),
  TELEGRAM_WEBHOOK_SECRET: z.string().regex(WEBHOOK_SECRET, "must be 1-256 of A-Z, a-z, 0-9, _ and -"),
  PUBLIC_BASE_URL: z.url("must be the Worker's URL").transform((v) => v.replace(/\/+$/, "")),
  TELEGRAM_BOT_USERNAME: z.string().optional(),
  TELEGRAM_API_BASE_URL: z
    .url("must be a URL like https://api.telegram.org")
    .default(DEFAULT_API_BASE_URL)
    .transform((v) => v.replace(/\/+$/, "")),
});

const meSchema = z.looseObject({
  id: z.number(),
  username: z.string(),
  can_read_all_group_messages: z.boolean().optional(),
});

export interface WebhookSet {
  url: string;
  username: string;
  /** Privacy mode is off: the bot hears every group message (else only what is meant for it, unless it is an admin). */
  readsAllGroupMessages: boolean;
}

export async function setTelegramWebhook(env: Record<string, string | undefined>): Promise<WebhookSet> {
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  requireSettings(set, ["TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET", "PUBLIC_BASE_URL"]);
  const parsed = settingsSchema.safeParse(set);
  if (!parsed.success)
    throw new CommandError(parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`).join("; "));
  const s = parsed.data;
  const call = { apiBaseUrl: s.TELEGRAM_API_BASE_URL, token: s.TELEGRAM_BOT_TOKEN };
  const me = meSchema.parse(await callTelegram(call, "getMe", {}));
  const configured = s.TELEGRAM_BOT_USERNAME?.replace(/^@/, "");
  if (configured !== undefined && configured.toLowerCase() !== me.username.toLowerCase()) {
    throw new CommandError(
      `TELEGRAM_BOT_USERNAME is ${configured}, but this token's bot is @${me.username}: set TELEGRAM_BOT_USERNAME=${me.username}`,
    );
  }
  const url = `${s.PUBLIC_BASE_URL}${WEBHOOK_PATH}`;
  await callTelegram(call, "setWebhook", {
    url,
    secret_token: s.TELEGRAM_WEBHOOK_SECRET,
    allowed_updates: [...ALLOWED_UPDATES],
  });
  return { url, username: me.username, readsAllGroupMessages: me.can_read_all_group_messages ?? false };
}

if (import.meta.main) {
  parseCommandLine(TELEGRAM_SET_WEBHOOK_COMMAND);
  await runCommand(TELEGRAM_SET_WEBHOOK_COMMAND.name, async () => {
    const done = await setTelegramWebhook(process.env);
    console.log(`@${done.username}'s updates now go to ${done.url}`);
    if (!process.env.TELEGRAM_BOT_USERNAME)
      console.log(`Set TELEGRAM_BOT_USERNAME=${done.username} on the Worker too.`);
    if (!done.readsAllGroupMessages) {
      console.log(
        "Privacy mode is on: in groups the bot hears only commands, mentions and replies to it (and everything where it is an admin).",
      );
      console.log(
        "For conversations that see what the room said, turn it off with @BotFather's /setprivacy, then add the bot to its groups again.",
      );
    }
  });
}
