/**
 * @module
 * Sends a simulated text message to the Worker the way Twilio does: a form post signed with X-Twilio-Signature
 * (base64 HMAC-SHA1 of the webhook URL followed by every parameter's name and value, sorted by name).
 */
import { randomBytes } from "node:crypto";
import { twilioSignature } from "../signers/twilio.ts";
import type { SimulatedPerson } from "./people.ts";

const WEBHOOK_PATH = "/twilio/sms";

export interface SmsSend {
  workerUrl: string;
  /** The URL Twilio signs: the one configured on the number, i.e. PUBLIC_BASE_URL + /twilio/sms. */
  publicBaseUrl: string;
  accountSid: string;
  authToken: string;
  botNumber: string;
}

export async function sendSms(
  opts: SmsSend,
  person: SimulatedPerson,
  text: string,
  media?: Record<string, unknown>,
): Promise<{ sid: string; status: number }> {
  const sid = `SM${randomBytes(16).toString("hex")}`;
  const params: Record<string, string> = {
    MessageSid: sid,
    SmsSid: sid,
    AccountSid: opts.accountSid,
    From: person.phone,
    To: opts.botNumber,
    Body: text,
    NumMedia: media ? "1" : "0",
    // An MMS's picture, as the Twilio fake's `/__media` made it (./attach.ts).
    ...(media ? { MediaUrl0: String(media.MediaUrl), MediaContentType0: String(media.MediaContentType) } : {}),
    NumSegments: "1",
    SmsStatus: "received",
    ApiVersion: "2010-04-01",
  };
  const res = await fetch(`${opts.workerUrl}${WEBHOOK_PATH}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Twilio-Signature": await twilioSignature(
        opts.authToken,
        `${opts.publicBaseUrl}${WEBHOOK_PATH}`,
        Object.entries(params),
      ),
    },
    body: new URLSearchParams(params).toString(),
  });
  await res.body?.cancel();
  return { sid, status: res.status };
}
