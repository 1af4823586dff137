/**
 * @module
 * Builds Twilio SMS webhooks signed the way Twilio signs them (dev/signers, written apart from the Worker's
 * verifier), and reads and scripts the Twilio Messages API fake.
 */
import { env } from "cloudflare:workers";
import { twilioSignature } from "../../dev/signers/twilio.ts";
import { suiteEnv, type TestEnv } from "./worker.ts";

const TWILIO_FAKE_URL = (env as unknown as Record<string, string>).TWILIO_API_BASE_URL!;
export const TWILIO_ACCOUNT_SID = "AC0000000000000000000000000000test";
export const TWILIO_AUTH_TOKEN = "test-twilio-auth-token";
export const BOT_NUMBER = "+15005550006";
export const WEBHOOK_PATH = "/twilio/sms";

/** The settings that switch Twilio on (the shared bindings leave it off, as a fresh deployment has it). */
export const TWILIO_SETTINGS = { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_PHONE_NUMBER: BOT_NUMBER };

/** A suite env with Twilio switched on. */
export function twilioSuiteEnv(suite: string, overrides: TestEnv = {}): TestEnv {
  return suiteEnv(suite, { ...TWILIO_SETTINGS, ...overrides });
}

let seq = 0;

/** A fresh sender number and MessageSids no other test uses. */
export function newSender(): string {
  seq += 1;
  return `+1555${String((Date.now() * 10 + seq) % 10_000_000).padStart(7, "0")}`;
}

export function newMessageSid(): string {
  seq += 1;
  const hex = (Date.now().toString(16) + seq.toString(16).padStart(8, "0")).padStart(32, "0");
  return `SM${hex}`;
}

/** The parameters of an inbound SMS as Twilio posts them, geo fields and all. */
export function smsParams(args: {
  from: string;
  body: string;
  sid?: string;
  numMedia?: number;
  to?: string;
  messagingServiceSid?: string;
  /** Media the fake holds (test/support/files.ts), in place of made-up URLs. */
  media?: { MediaUrl: string; MediaContentType: string }[];
}): [string, string][] {
  const sid = args.sid ?? newMessageSid();
  const media = args.media?.length ?? args.numMedia ?? 0;
  return [
    ["ToCountry", "US"],
    ["ToState", "CA"],
    ["SmsMessageSid", sid],
    ["NumMedia", String(media)],
    ["ToCity", "SAN FRANCISCO"],
    ["FromZip", "94105"],
    ["SmsSid", sid],
    ["FromState", "CA"],
    ["SmsStatus", "received"],
    ["FromCity", "SAN FRANCISCO"],
    ["Body", args.body],
    ["FromCountry", "US"],
    ["To", args.to ?? BOT_NUMBER],
    ["ToZip", "94105"],
    ["NumSegments", "1"],
    ["MessageSid", sid],
    ["AccountSid", TWILIO_ACCOUNT_SID],
    ["From", args.from],
    ["ApiVersion", "2010-04-01"],
    ...(args.messagingServiceSid ? [["MessagingServiceSid", args.messagingServiceSid] as [string, string]] : []),
    ...Array.from({ length: media }, (_, i): [string, string][] => [
      [`MediaContentType${i}`, args.media?.[i]?.MediaContentType ?? "image/jpeg"],
      [
        `MediaUrl${i}`,
        args.media?.[i]?.MediaUrl ??
          `https://api.twilio.com/2010-04-01/Accounts/${TWILIO_ACCOUNT_SID}/Messages/${sid}/Media/ME${i}`,
      ],
    ]).flat(),
  ];
}

/**
 * A webhook POST signed for `${PUBLIC_BASE_URL}/twilio/sms` (or `signedUrl`) with the auth token (or `token`);
 * `sendParams` lets a test post something other than what was signed.
 */
export async function signedSmsRequest(
  testEnv: TestEnv,
  params: [string, string][],
  opts: { token?: string; signedUrl?: string; sendParams?: [string, string][]; query?: string } = {},
): Promise<Request> {
  const query = opts.query ?? "";
  const url = opts.signedUrl ?? `${String(testEnv.PUBLIC_BASE_URL)}${WEBHOOK_PATH}${query}`;
  const signature = await twilioSignature(opts.token ?? TWILIO_AUTH_TOKEN, url, params);
  return new Request(`https://worker.test${WEBHOOK_PATH}${query}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Twilio-Signature": signature,
      "I-Twilio-Idempotency-Token": crypto.randomUUID(),
    },
    body: new URLSearchParams(opts.sendParams ?? params).toString(),
  });
}

export interface SentSms {
  accountSid: string;
  to: string;
  from: string;
  body: string;
  sid: string;
  messagingServiceSid?: string;
}

/** The messages the Twilio fake accepted for `to`, oldest first. */
export async function smsSentTo(to: string): Promise<SentSms[]> {
  const res = await fetch(`${TWILIO_FAKE_URL}/__calls?to=${encodeURIComponent(to)}`);
  return (await res.json()) as SentSms[];
}

/** Makes the fake refuse the next message(s) to `to`: `{ error: "21610" }` or `{ status: 429 }`. */
export async function failSmsTo(
  to: string,
  rule: { error?: string; status?: number; retryAfter?: number; times?: number },
): Promise<void> {
  const res = await fetch(`${TWILIO_FAKE_URL}/__fail`, { method: "POST", body: JSON.stringify({ to, ...rule }) });
  if (!res.ok) throw new Error(`scripting the Twilio fake failed: ${res.status}`);
}
