/**
 * @module
 * The Worker's Teams settings for the local stack (`npm run dev`): the OpenID metadata and the token endpoint on the
 * fake, its origin the one service URL beyond Microsoft's the bot's token may go to, and, unless .dev.vars names a bot
 * of its own, the fake's bot registration (its app id and secret); the fake is started with that registration and
 * posts people's messages to the Worker's /teams/messages, as the Bot Connector posts to a bot's messaging endpoint.
 */
import { FAKE_APP_ID, FAKE_APP_PASSWORD, OPENID_METADATA_PATH, type TeamsFakeOptions } from "./server.ts";

/** The settings to put where .dev.vars leaves them local or unset. */
export function teamsFakeSettings(base: string, vars: Map<string, string>): Record<string, string> {
  return {
    TEAMS_OPENID_METADATA_URL: `${base}${OPENID_METADATA_PATH}`,
    TEAMS_LOGIN_URL: base,
    TEAMS_EXTRA_SERVICE_URL: base,
    ...(vars.get("TEAMS_APP_ID") ? {} : { TEAMS_APP_ID: FAKE_APP_ID, TEAMS_APP_PASSWORD: FAKE_APP_PASSWORD }),
  };
}

/** The fake for the Worker those settings describe: the bot registration .dev.vars names, or the fake's own. */
export function teamsFakeOptions(vars: Map<string, string>, workerUrl: string): Omit<TeamsFakeOptions, "port"> {
  const appId = vars.get("TEAMS_APP_ID");
  const password = vars.get("TEAMS_APP_PASSWORD");
  const tenantId = vars.get("TEAMS_TENANT_ID");
  return {
    ...(appId && password ? { app: { appId, password, tenantId: tenantId || undefined } } : {}),
    settings: { endpoint: `${workerUrl}/teams/messages` },
  };
}
