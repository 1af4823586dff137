/**
 * @module
 * The Worker's Google Chat settings for the local stack (`npm run dev`): the Chat API, token endpoint and key sets
 * on the fake, and, unless .dev.vars names an app of its own, the fake's app: a service account made for the run and
 * events signed for its project number. The fake is started with that account, and sends people's messages to the
 * Worker's endpoint as Chat sends an HTTP endpoint app its events.
 */
import type { GoogleChatFakeOptions } from "./server.ts";
import { newServiceAccountKey } from "./service-account.ts";

const FAKE_PROJECT_NUMBER = "123456789012";

/** The settings to put where .dev.vars leaves them local or unset. */
export function googleChatFakeSettings(base: string, vars: Map<string, string>): Record<string, string> {
  return {
    GOOGLE_CHAT_API_BASE_URL: base,
    GOOGLE_OAUTH_TOKEN_URL: `${base}/token`,
    GOOGLE_CHAT_CERTS_URL: `${base}/service_accounts/v1/metadata/x509/chat@system.gserviceaccount.com`,
    GOOGLE_CHAT_JWKS_URL: `${base}/oauth2/v3/certs`,
    ...(vars.get("GOOGLE_CHAT_SERVICE_ACCOUNT")
      ? {}
      : { GOOGLE_CHAT_SERVICE_ACCOUNT: newServiceAccountKey().json, GOOGLE_CHAT_AUDIENCE: FAKE_PROJECT_NUMBER }),
  };
}

/** The fake for the Worker those settings describe. */
export function googleChatFakeOptions(
  vars: Map<string, string>,
  workerUrl: string,
): Omit<GoogleChatFakeOptions, "port"> {
  const account = vars.get("GOOGLE_CHAT_SERVICE_ACCOUNT");
  return {
    ...(account ? { serviceAccountJson: account } : {}),
    settings: {
      audience: vars.get("GOOGLE_CHAT_AUDIENCE") ?? FAKE_PROJECT_NUMBER,
      endpoint: `${workerUrl}/google-chat/events`,
    },
  };
}
