/**
 * @module
 * Microsoft Teams' own settings. On with the bot's Microsoft app id (the audience of every activity's token) and its
 * client secret (TEAMS_APP_PASSWORD, a secret: it buys the tokens the answers are posted with). TEAMS_TENANT_ID makes
 * a single-tenant bot, whose tokens come from its own tenant's endpoint; empty, the bot is multi-tenant (Microsoft's
 * `botframework.com` tenant). The OpenID metadata and login URLs default to Microsoft's; the local stack points them
 * at the fake, and names the fake's origin in TEAMS_EXTRA_SERVICE_URL, the one service URL beyond Microsoft's hosts a
 * token may be sent to. A malformed one turns Teams off (`platform_misconfigured`), never the Worker, and is named,
 * never its value.
 */
import { optionalText, readSettings, url } from "../../settings-schema.ts";
import * as z from "../../zod.ts";
import type { PlatformSettings } from "../adapter.ts";

/** A Microsoft Entra id (an app's or a tenant's): a GUID. */
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const guid = (what: string) =>
  optionalText.check(z.refine((v) => v === undefined || GUID.test(v), `must be the ${what} (a GUID)`));

const shape = {
  TEAMS_APP_ID: guid("bot's Microsoft app id"),
  TEAMS_APP_PASSWORD: optionalText,
  TEAMS_TENANT_ID: guid("bot's Microsoft Entra tenant id, or empty for a multi-tenant bot"),
  TEAMS_OPENID_METADATA_URL: z._default(url, "https://login.botframework.com/v1/.well-known/openidconfiguration"),
  TEAMS_LOGIN_URL: z._default(url, "https://login.microsoftonline.com"),
  /** One more origin a service URL may have (the local stack's fake); Microsoft's hosts are always allowed. */
  TEAMS_EXTRA_SERVICE_URL: z.optional(url),
};

export type TeamsSettings = { [K in keyof typeof shape]: z.output<(typeof shape)[K]> };

export const teamsSettings: PlatformSettings<TeamsSettings> = {
  // Every one is essential: a bot with a wrong id, tenant or URL would refuse every activity or post nowhere.
  read: (env) => readSettings(shape, env, { essential: Object.keys(shape) as (keyof typeof shape)[] }),
  enabled: (s) => Boolean(s.TEAMS_APP_ID && s.TEAMS_APP_PASSWORD),
  tokenSetting: "TEAMS_APP_PASSWORD",
  token: (s) => s.TEAMS_APP_PASSWORD,
};
