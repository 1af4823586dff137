/**
 * @module
 * Every activity the Bot Connector sends carries `Authorization: Bearer <JWT>`, checked before anything of the body
 * is used ("Authentication with the Bot Connector API", Bot Connector to bot): signed with a key from the JWKS that
 * the OpenID metadata (TEAMS_OPENID_METADATA_URL) names, issuer `https://api.botframework.com`, audience the bot's
 * app id, within its lifetime give or take five minutes, its `serviceurl` claim equal to the activity's
 * `serviceUrl`, and its key endorsed for the `msteams` channel (botbuilder-js's ChannelValidation and
 * EndorsementsValidator). The service URL must also be one the bot's token may go to (./service-url.ts). A failure
 * is 401; keys that could not be fetched make the delivery `unavailable` (503, and the Connector retries).
 */
import type { AdapterContext, Verified, WebhookRequest } from "../adapter.ts";
import { verifyBearerJwt } from "../bearer-jwt.ts";
import { signingKeys } from "../jwt-keys.ts";
import { serviceBase, serviceUrlAllowed } from "./service-url.ts";
import type { TeamsSettings } from "./settings.ts";

const BOT_CONNECTOR_ISSUER = "https://api.botframework.com";
export const TEAMS_CHANNEL = "msteams";

/** The activity's `serviceUrl`, read only for the token's check; undefined when the body has none. */
function serviceUrlOf(rawBody: string): string | undefined {
  try {
    const body: unknown = JSON.parse(rawBody);
    const url = body && typeof body === "object" ? (body as { serviceUrl?: unknown }).serviceUrl : undefined;
    return typeof url === "string" ? url : undefined;
  } catch {
    return undefined;
  }
}

export async function verifyTeamsRequest(
  ctx: AdapterContext<TeamsSettings>,
  request: WebhookRequest,
): Promise<Verified> {
  const appId = ctx.config.TEAMS_APP_ID;
  if (!appId) return { ok: false, reason: "not_configured" };
  const result = await verifyBearerJwt(request.headers.get("Authorization"), {
    keys: signingKeys({ openIdMetadataUrl: ctx.config.TEAMS_OPENID_METADATA_URL }, { fetch: ctx.fetch, now: ctx.now }),
    issuers: [BOT_CONNECTOR_ISSUER],
    audiences: [appId],
    now: ctx.now,
    check: ({ claims, key }) => {
      if (!key.endorsements.includes(TEAMS_CHANNEL)) return "not_endorsed";
      const activityUrl = serviceUrlOf(request.rawBody);
      if (activityUrl === undefined) return "no_service_url";
      // botbuilder compares them exactly; a trailing slash is the only difference the Connector is known to make.
      if (typeof claims.serviceurl !== "string" || serviceBase(claims.serviceurl) !== serviceBase(activityUrl))
        return "wrong_service_url";
      return serviceUrlAllowed(ctx.config, activityUrl) ? undefined : "service_url_not_allowed";
    },
  });
  if (result.ok) return { ok: true };
  return result.reason === "keys_unavailable" ? { ok: false, reason: result.reason, unavailable: true } : result;
}
