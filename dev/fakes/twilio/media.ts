/**
 * @module
 * Media of inbound MMS and WhatsApp messages on the Twilio fake, served as Twilio serves them with "Enforce HTTP Auth
 * on Media URLs" on: `GET /2010-04-01/Accounts/AC…/Messages/MM…/Media/ME…` needs the account's sid and a token by HTTP
 * Basic (else 401, error 20003), then redirects (307) to a short-lived CDN URL that needs none, as Twilio's
 * mms.twiliocdn.com does. `POST /__media {account?, message?, name, type, base64 | png}` → `{MediaUrl,
 * MediaContentType}`, the pair an inbound webhook carries as `MediaUrl{N}` and `MediaContentType{N}`.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { controlBody, type ControlRoute } from "../control.ts";
import { fileUploadSchema, sendFile, sendRefusal, type FileStore } from "../files.ts";

const MEDIA_PATH = /^\/2010-04-01\/Accounts\/(AC\w+)\/Messages\/(\w+)\/Media\/(ME[0-9a-f]{32})$/;
const CDN_PATH = /^\/cdn\/([0-9a-f]{32})$/;
const CDN_LIFETIME_MS = 4 * 60 * 60 * 1000;
/** The test suites' account (test/support/twilio.ts) and the local stack's. */
const DEFAULT_ACCOUNT = "AC0000000000000000000000000000test";

const uploadSchema = fileUploadSchema.and(
  z.object({
    account: z
      .string()
      .regex(/^AC\w+$/)
      .default(DEFAULT_ACCOUNT),
    message: z
      .string()
      .regex(/^(SM|MM)\w+$/)
      .default(`MM${"0".repeat(32)}`),
  }),
);

export function twilioMediaRoutes(files: FileStore, origin: () => string): Record<string, ControlRoute> {
  return {
    "POST /__media": (body) => {
      const upload = controlBody(uploadSchema, body);
      const file = files.put(upload.account, () => `ME${randomBytes(16).toString("hex")}`, upload);
      return {
        MediaUrl: `${origin()}/2010-04-01/Accounts/${upload.account}/Messages/${upload.message}/Media/${file.id}`,
        MediaContentType: file.type,
      };
    },
  };
}

/** Short-lived CDN addresses handed out by the redirect: token → media sid and when it stops working. */
const cdn = new Map<string, { media: string; until: number }>();

/** Serves a media URL or its CDN redirect target (true when the request was one). */
export function serveTwilioMedia(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  files: FileStore,
  basicUser: (req: IncomingMessage) => string | undefined,
  origin: string,
): boolean {
  if (req.method !== "GET") return false;
  const onCdn = CDN_PATH.exec(url.pathname);
  if (onCdn) {
    const grant = cdn.get(onCdn[1]!);
    const file = grant && grant.until > Date.now() ? files.get(grant.media) : undefined;
    if (file) sendFile(res, file);
    else sendRefusal(res, 403, "AccessDenied: Request has expired");
    return true;
  }
  const match = MEDIA_PATH.exec(url.pathname);
  if (!match) return false;
  const file = files.get(match[3]!);
  if (basicUser(req) !== match[1]) {
    res.writeHead(401, { "Content-Type": "application/json", "WWW-Authenticate": 'Basic realm="Twilio API"' });
    res.end(
      JSON.stringify({
        code: 20003,
        message: "Authenticate",
        more_info: "https://www.twilio.com/docs/errors/20003",
        status: 401,
      }),
    );
    return true;
  }
  if (!file || file.owner !== match[1]) {
    sendRefusal(res, 404, "The requested resource was not found");
    return true;
  }
  const token = randomBytes(16).toString("hex");
  cdn.set(token, { media: file.id, until: Date.now() + CDN_LIFETIME_MS });
  sendRefusal(res, 307, "", { Location: `${origin}/cdn/${token}` });
  return true;
}
