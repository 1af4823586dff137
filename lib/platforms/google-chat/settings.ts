/**
 * @module
 * Google Chat's own settings. On with the authentication audience (what the Chat app's connection settings say the
 * bearer token of each event is for: its HTTP endpoint URL, or its Cloud project number; which of the two follows
 * from the form) and the service account's JSON key (a secret: its private key signs the token requests of the
 * answers, ./service-account.ts). The four URLs default to Google's; the local stack points them at the fake. A
 * malformed one turns Google Chat off and is named, never its value.
 */
import { optionalText, readSettings, url } from "../../settings-schema.ts";
import * as z from "../../zod.ts";
import type { PlatformSettings } from "../adapter.ts";

/** A Cloud project number: digits only (the console shows it beside the project id, which has letters). */
const PROJECT_NUMBER = /^\d{1,20}$/;

/** How the events' bearer token is checked (./verify.ts). */
export type ChatAudience = { mode: "endpoint"; url: string } | { mode: "project"; number: string };

export function audienceOf(value: string): ChatAudience | null {
  if (PROJECT_NUMBER.test(value)) return { mode: "project", number: value };
  try {
    const parsed = new URL(value);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? { mode: "endpoint", url: value } : null;
  } catch {
    return null;
  }
}

/** The fields of a service account's JSON key that Parley reads (the console's "Create key → JSON" download). */
const serviceAccountKeySchema = z.looseObject({
  type: z.literal("service_account"),
  client_email: z.string().check(z.regex(/^[^@\s]+@[^@\s]+$/)),
  private_key: z.string().check(z.includes("-----BEGIN PRIVATE KEY-----")),
  private_key_id: z.optional(z.string()),
});
export type ServiceAccountKey = z.output<typeof serviceAccountKeySchema>;

export function serviceAccountOf(json: string): ServiceAccountKey | null {
  try {
    const parsed = serviceAccountKeySchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const shape = {
  GOOGLE_CHAT_AUDIENCE: optionalText.check(
    z.refine(
      (v) => v === undefined || audienceOf(v) !== null,
      "must be the app's HTTP endpoint URL or its Cloud project number, as its connection settings name the audience",
    ),
  ),
  GOOGLE_CHAT_SERVICE_ACCOUNT: optionalText.check(
    z.refine(
      (v) => v === undefined || serviceAccountOf(v) !== null,
      "must be the service account's JSON key (type service_account, client_email, private_key)",
    ),
  ),
  GOOGLE_CHAT_API_BASE_URL: z._default(url, "https://chat.googleapis.com"),
  GOOGLE_OAUTH_TOKEN_URL: z._default(url, "https://oauth2.googleapis.com/token"),
  /** The Chat service account's certificates: the keys of a project-number audience's tokens. */
  GOOGLE_CHAT_CERTS_URL: z._default(
    url,
    "https://www.googleapis.com/service_accounts/v1/metadata/x509/chat@system.gserviceaccount.com",
  ),
  /** Google's OpenID Connect keys: those of an endpoint-URL audience's ID tokens. */
  GOOGLE_CHAT_JWKS_URL: z._default(url, "https://www.googleapis.com/oauth2/v3/certs"),
};

export type GoogleChatSettings = { [K in keyof typeof shape]: z.output<(typeof shape)[K]> };

export const googleChatSettings: PlatformSettings<GoogleChatSettings> = {
  read: (env) =>
    readSettings(shape, env, {
      essential: [
        "GOOGLE_CHAT_AUDIENCE",
        "GOOGLE_CHAT_SERVICE_ACCOUNT",
        "GOOGLE_CHAT_API_BASE_URL",
        "GOOGLE_OAUTH_TOKEN_URL",
        "GOOGLE_CHAT_CERTS_URL",
        "GOOGLE_CHAT_JWKS_URL",
      ],
    }),
  enabled: (s) => Boolean(s.GOOGLE_CHAT_AUDIENCE && s.GOOGLE_CHAT_SERVICE_ACCOUNT),
  tokenSetting: "GOOGLE_CHAT_SERVICE_ACCOUNT",
  token: (s) => s.GOOGLE_CHAT_SERVICE_ACCOUNT,
};
