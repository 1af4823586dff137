/**
 * @module
 * Where the bot's token may go. Every activity names the service URL its answers are posted to (`serviceUrl`), and
 * that URL gets the bot's access token with each post: a token sent to any other host would be handed to whoever runs
 * it. So only Microsoft's Bot Connector hosts take it, over HTTPS: `*.botframework.com`, `*.teams.microsoft.com`
 * and `smba.trafficmanager.net` (where Teams' regional service URLs are, `https://smba.trafficmanager.net/amer/`),
 * plus the one origin TEAMS_EXTRA_SERVICE_URL names (the local stack's fake). The inbound token's `serviceurl` claim
 * must also equal the activity's (./verify.ts); this list holds even against a claim signed with a leaked key.
 */
import type { TeamsSettings } from "./settings.ts";

/** Hosts (and their subdomains) of Microsoft's Bot Connector service URLs. */
const MICROSOFT_HOSTS = ["botframework.com", "teams.microsoft.com", "smba.trafficmanager.net"] as const;

function onHost(hostname: string, host: string): boolean {
  return hostname === host || hostname.endsWith(`.${host}`);
}

/** True when the bot's token may be sent to `serviceUrl`. */
export function serviceUrlAllowed(config: TeamsSettings, serviceUrl: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(serviceUrl);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  const extra = config.TEAMS_EXTRA_SERVICE_URL;
  if (extra && parsed.origin === new URL(extra).origin) return true;
  return parsed.protocol === "https:" && MICROSOFT_HOSTS.some((host) => onHost(parsed.hostname, host));
}

/** `serviceUrl` without its trailing slashes, to which `/v3/...` is appended. */
export function serviceBase(serviceUrl: string): string {
  return serviceUrl.replace(/\/+$/, "");
}
