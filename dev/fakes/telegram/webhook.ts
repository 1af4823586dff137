/**
 * @module
 * The webhook methods: `setWebhook` (an HTTPS URL, or an HTTP one on this machine, as Telegram's local Bot API server
 * takes; `secret_token` 1-256 of A-Z, a-z, 0-9, _ and -; `allowed_updates` kept as given, and kept as it was when
 * left out), `deleteWebhook`, `getWebhookInfo`.
 */
import { ERRORS } from "./errors.ts";
import { str, type Args } from "./params.ts";
import type { FakeBot } from "./world.ts";

const SECRET = /^[A-Za-z0-9_-]*$/;
const LOCAL_HOSTS = /^(?:127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

export function setWebhook(bot: FakeBot, args: Args): true {
  const raw = str(args, "url") ?? "";
  if (raw === "") {
    delete bot.webhook;
    return true;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw ERRORS.webhookUrl;
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOCAL_HOSTS.test(url.hostname)))
    throw ERRORS.webhookUrl;
  const secret = str(args, "secret_token");
  if (secret !== undefined && secret.length > 256) throw ERRORS.secretLong;
  if (secret !== undefined && !SECRET.test(secret)) throw ERRORS.secretChars;
  const given = args.allowed_updates;
  const allowedUpdates = Array.isArray(given) ? given.map(String) : bot.webhook?.allowedUpdates;
  bot.webhook = { url: raw, ...(secret ? { secretToken: secret } : {}), ...(allowedUpdates ? { allowedUpdates } : {}) };
  return true;
}

export function deleteWebhook(bot: FakeBot): true {
  delete bot.webhook;
  return true;
}

export function webhookInfo(bot: FakeBot): object {
  return {
    url: bot.webhook?.url ?? "",
    has_custom_certificate: false,
    pending_update_count: 0,
    ...(bot.webhook?.allowedUpdates ? { allowed_updates: bot.webhook.allowedUpdates } : {}),
  };
}
