/**
 * @module
 * Every Google Chat delivery carries `Authorization: Bearer <token>`, checked before anything of the body is read
 * (docs "Verify requests from Google Chat"). What the token is follows from the app's authentication audience
 * (GOOGLE_CHAT_AUDIENCE, ./settings.ts):
 * - the Cloud project number: a JWT issued by `chat@system.gserviceaccount.com` for that number, signed with one of
 *   that account's certificates (GOOGLE_CHAT_CERTS_URL, Google's x509 metadata of the account);
 * - the HTTP endpoint URL: a Google-signed OpenID Connect ID token (issuer `https://accounts.google.com`, Google's
 *   JWKS at GOOGLE_CHAT_JWKS_URL) for that URL, whose verified `email` is Chat's service account, or, for a Chat app
 *   built as a Workspace add-on, the app's own add-ons service account
 *   (`service-<project number>@gcp-sa-gsuiteaddons.iam.gserviceaccount.com`).
 * A missing, expired, wrongly signed or wrong-audience token is refused (401); keys that could not be fetched make
 * the delivery `unavailable` (503, so that Chat delivers it again).
 */

import type { AdapterContext, Verified, WebhookRequest } from "../adapter.ts";
import { type BearerJwtResult, verifyBearerJwt } from "../bearer-jwt.ts";
import { signingKeys } from "../jwt-keys.ts";
import { audienceOf, type GoogleChatSettings } from "./settings.ts";

const CHAT_ISSUER = "chat@system.gserviceaccount.com";
/** An ID token's issuer, as Google writes it (with or without the scheme, google-auth-library accepts both). */
const GOOGLE_ISSUERS = ["https://accounts.google.com", "accounts.google.com"];
const ADD_ON_SERVICE_ACCOUNT = /^service-\d{1,20}@gcp-sa-gsuiteaddons\.iam\.gserviceaccount\.com$/;

export async function verifyGoogleChatRequest(
  ctx: AdapterContext<GoogleChatSettings>,
  request: WebhookRequest,
): Promise<Verified> {
  const audience = audienceOf(ctx.config.GOOGLE_CHAT_AUDIENCE ?? "");
  if (!audience) return { ok: false, reason: "not_configured" };
  const options = { fetch: ctx.fetch, now: ctx.now };
  const authorization = request.headers.get("Authorization");
  const result: BearerJwtResult =
    audience.mode === "project"
      ? await verifyBearerJwt(authorization, {
          keys: signingKeys({ x509CertificatesUrl: ctx.config.GOOGLE_CHAT_CERTS_URL }, options),
          issuers: [CHAT_ISSUER],
          audiences: [audience.number],
          now: ctx.now,
        })
      : await verifyBearerJwt(authorization, {
          keys: signingKeys({ jwksUrl: ctx.config.GOOGLE_CHAT_JWKS_URL }, options),
          issuers: GOOGLE_ISSUERS,
          audiences: [audience.url],
          now: ctx.now,
          check: ({ claims }) => {
            const email = typeof claims.email === "string" ? claims.email : "";
            if (claims.email_verified !== true) return "email_not_verified";
            return email === CHAT_ISSUER || ADD_ON_SERVICE_ACCOUNT.test(email) ? undefined : "not_chat";
          },
        });
  if (result.ok) return { ok: true };
  return result.reason === "keys_unavailable" ? { ok: false, reason: result.reason, unavailable: true } : result;
}
