/**
 * @module
 * A Twilio Messages API stand-in for tests and `npm run dev`:
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` (form-encoded, HTTP Basic `AccountSid:AuthToken`) answers
 * 201 like Twilio and records each message it accepts. `/__calls`, `/__fail`, `/__reset` (see ./http.ts) let tests
 * read what was sent and script failures: `{"to": "+1555…", "error": "21610"}` answers 400 with that Twilio error
 * code, `{"status": 429}` a rate limit.
 * Standalone: `node dev/fakes/twilio.ts` (TWILIO_FAKE_PORT, default 8093).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createFakeControl, readBody, sendJson, startHttpServer, type FailureRule } from "./http.ts";
import { serveStandalone } from "../serve-standalone.ts";

export const DEFAULT_TWILIO_FAKE_PORT = 8093;
const MESSAGES_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;
const MAX_BODY_CHARS = 1_600;
/** Twilio's codes for what the fake checks itself. */
const ERRORS = {
  authentication: { status: 401, code: 20003, message: "Authenticate" },
  rateLimited: { status: 429, code: 20429, message: "Too Many Requests" },
  missingTo: { status: 400, code: 21604, message: "A 'To' phone number is required." },
  missingFrom: { status: 400, code: 21603, message: "A 'From' phone number is required." },
  missingBody: { status: 400, code: 21602, message: "Message body is required." },
  tooLong: { status: 400, code: 21617, message: "The concatenated message body exceeds the 1600 character limit." },
  optedOut: { status: 400, code: 21610, message: "Attempt to send to unsubscribed recipient" },
} as const;

export interface TwilioFakeOptions {
  port: number;
  host?: string;
}

export interface RunningTwilioFake {
  /** Base for TWILIO_API_BASE_URL, e.g. http://127.0.0.1:8093 */
  url: string;
  close(): Promise<void>;
}

/** One message the fake accepted, i.e. what the person's phone would show. Refused requests are not recorded. */
export interface RecordedTwilioMessage extends Record<string, unknown> {
  accountSid: string;
  to: string;
  from: string;
  body: string;
  sid: string;
}

export async function startTwilioFake(opts: TwilioFakeOptions): Promise<RunningTwilioFake> {
  const control = createFakeControl<RecordedTwilioMessage>();
  let sequence = 0;

  async function createMessage(req: IncomingMessage, res: ServerResponse, accountSid: string): Promise<void> {
    const form = new URLSearchParams(await readBody(req));
    const refuse = (error: { status: number; code: number; message: string }, headers: Record<string, string> = {}) =>
      sendJson(res, error.status, { code: error.code, message: error.message, more_info: `https://www.twilio.com/docs/errors/${error.code}`, status: error.status }, headers);
    if (basicUser(req) !== accountSid) return refuse(ERRORS.authentication);
    const to = form.get("To") ?? "";
    const from = form.get("From") ?? form.get("MessagingServiceSid") ?? "";
    const body = form.get("Body") ?? "";
    const call = { accountSid, to, from, body };
    const failure = control.takeFailure(call);
    if (failure) return scriptedFailure(failure, refuse);
    if (!to) return refuse(ERRORS.missingTo);
    if (!from) return refuse(ERRORS.missingFrom);
    if (!body) return refuse(ERRORS.missingBody);
    if (body.length > MAX_BODY_CHARS) return refuse(ERRORS.tooLong);

    sequence += 1;
    const sid = `SM${sequence.toString(16).padStart(32, "0")}`;
    control.record({ ...call, sid });
    const now = new Date().toUTCString();
    sendJson(res, 201, {
      sid,
      account_sid: accountSid,
      to,
      from,
      body,
      status: "queued",
      direction: "outbound-api",
      num_segments: "1",
      date_created: now,
      date_updated: now,
      api_version: "2010-04-01",
      uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
    });
  }

  const server = await startHttpServer({
    port: opts.port,
    ...(opts.host ? { host: opts.host } : {}),
    async handle(req, res, url) {
      if (await control.handle(req, res, url)) return;
      const account = MESSAGES_PATH.exec(url.pathname)?.[1];
      if (!account) return sendJson(res, 404, { code: 20404, message: "The requested resource was not found", status: 404 });
      if (req.method !== "POST") return sendJson(res, 405, { code: 20004, message: "Method not allowed", status: 405 });
      await createMessage(req, res, decodeURIComponent(account));
    },
  });
  return { url: server.origin, close: server.close };
}

/** The account sid of a Basic auth header with a non-empty token; undefined otherwise. */
function basicUser(req: IncomingMessage): string | undefined {
  const encoded = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  if (!encoded) return undefined;
  const [user, token] = Buffer.from(encoded, "base64").toString("utf8").split(":", 2);
  return user && token ? user : undefined;
}

function scriptedFailure(
  rule: FailureRule,
  refuse: (error: { status: number; code: number; message: string }, headers?: Record<string, string>) => void,
): void {
  if (rule.status === 429) return refuse(ERRORS.rateLimited, { "Retry-After": String(rule.retryAfter ?? 1) });
  if (rule.error) {
    const code = Number(rule.error);
    if (code === ERRORS.optedOut.code) return refuse(ERRORS.optedOut);
    return refuse({ status: rule.status ?? 400, code, message: `Scripted Twilio error ${code}` });
  }
  refuse({ status: rule.status ?? 500, code: 20500, message: "Internal Server Error" });
}

if (import.meta.main) {
  serveStandalone("twilio_fake", () => startTwilioFake({ port: Number(process.env.TWILIO_FAKE_PORT ?? DEFAULT_TWILIO_FAKE_PORT) }));
}
