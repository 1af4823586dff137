/**
 * @module
 * Twilio's REST errors as the fake gives them: `{code, message, more_info, status}` with the HTTP status, for the
 * checks the fake makes itself and for scripted faults (a numeric `error` is a Twilio code).
 */
import type { ServerResponse } from "node:http";
import type { FakeFault } from "../faults.ts";
import { sendJson } from "../http.ts";

export interface TwilioError {
  status: number;
  code: number;
  message: string;
}

export const TWILIO_ERRORS = {
  authentication: { status: 401, code: 20003, message: "Authenticate" },
  notFound: { status: 404, code: 20404, message: "The requested resource was not found" },
  rateLimited: { status: 429, code: 20429, message: "Too Many Requests" },
  serverError: { status: 500, code: 20500, message: "Internal Server Error" },
  missingBody: { status: 400, code: 21602, message: "Message body is required." },
  missingFrom: { status: 400, code: 21603, message: "A 'From' phone number is required." },
  missingTo: { status: 400, code: 21604, message: "A 'To' phone number is required." },
  optedOut: { status: 400, code: 21610, message: "Attempt to send to unsubscribed recipient" },
  tooLong: { status: 400, code: 21617, message: "The concatenated message body exceeds the 1600 character limit." },
  // The Messaging Service codes below are from memory of Twilio's error dictionary, not checked against it.
  unknownService: { status: 400, code: 21701, message: "The Messaging Service Sid is invalid." },
  noSenderInService: {
    status: 400,
    code: 21703,
    message: "The Messaging Service does not have a phone number available to send a message to this phone number.",
  },
  channelMismatch: {
    status: 400,
    code: 21910,
    message: "Invalid From and To pair. From and To should be of the same channel.",
  },
} as const satisfies Record<string, TwilioError>;

/** Asynchronous failure of a WhatsApp message: a free-form message outside the 24-hour customer service window. */
export const WHATSAPP_OUTSIDE_WINDOW = {
  code: 63016,
  message:
    "Failed to send freeform message because you are outside the allowed window. If you are using WhatsApp, please use a Message Template.",
};

export function sendTwilioError(res: ServerResponse, error: TwilioError, headers: Record<string, string> = {}): void {
  sendJson(
    res,
    error.status,
    {
      code: error.code,
      message: error.message,
      more_info: `https://www.twilio.com/docs/errors/${error.code}`,
      status: error.status,
    },
    headers,
  );
}

/** A scripted refusal: 429 (20429) with Retry-After, a server error, or the Twilio error code given. */
export function refuseAsTwilio(res: ServerResponse, fault: FakeFault): void {
  if (fault.fault === "ratelimit")
    return sendTwilioError(res, TWILIO_ERRORS.rateLimited, { "Retry-After": String(fault.retryAfter ?? 1) });
  if (fault.fault === "refuse") return sendTwilioError(res, { ...TWILIO_ERRORS.serverError, status: fault.status });
  if (fault.fault !== "error") return;
  const code = Number(fault.error);
  const known = Object.values(TWILIO_ERRORS).find((e) => e.code === code);
  sendTwilioError(res, {
    status: fault.status ?? known?.status ?? 400,
    code,
    message: known?.message ?? `Scripted Twilio error ${code}`,
  });
}
