/**
 * @module
 * Sends one SMS through Twilio's Messages API (form-encoded, HTTP Basic `AccountSid:AuthToken`) and turns Twilio's
 * failures into what the job flow acts on: PlatformRateLimited (429: "never processed and always safe to retry"),
 * GiveUp (a 4xx the same request can never get past, e.g. 21610 for an opted-out number), Error (5xx, network:
 * retry). The form's fields are typed by Twilio's own helper library (npm `twilio`, generated from twilio-oai; a
 * dev dependency whose types alone are used), so a misspelt field fails `npm run typecheck`.
 */

import type {
  MessageListInstanceCreateOptions,
  MessageListInstancePageOptions,
} from "twilio/lib/rest/api/v2010/account/message";
import { basicAuthorization } from "../../base64.ts";
import { GiveUp } from "../../errors.ts";
import * as z from "../../zod.ts";
import { PlatformRateLimited } from "../rate-limited.ts";

const TWILIO_API_VERSION = "2010-04-01";
/** "Attempt to send to unsubscribed recipient": the person texted STOP. */
export const TWILIO_OPTED_OUT_CODE = 21610;
const REQUEST_TIMEOUT_MS = 10_000;
/** Used when a 429 carries no usable Retry-After. */
const DEFAULT_RETRY_AFTER_SECONDS = 1;

const createdSchema = z.looseObject({ sid: z.string().check(z.minLength(1)) });
const errorSchema = z.looseObject({ code: z.optional(z.coerce.number()), message: z.optional(z.string()) });

export interface SendTwilioSmsArgs {
  apiBaseUrl: string;
  accountSid: string;
  authToken: string;
  to: string;
  from: string;
  /** Sent beside `From` (Twilio takes both): the text is the service's, from the number the person wrote to. */
  messagingServiceSid?: string;
  body: string;
  fetch?: typeof fetch;
}

/** A Messages API form as Twilio names its fields: the helper's options, capitalised as the helper sends them. */
type TwilioForm<Options> = { [K in keyof Options as Capitalize<K & string>]?: string };
/** Messages create: `To` is required, as twilio-oai declares. */
type MessageCreateForm = TwilioForm<MessageListInstanceCreateOptions> & { To: string };
/** Messages list's query. */
export type MessageListQuery = TwilioForm<MessageListInstancePageOptions>;

export function messagesUrl(apiBaseUrl: string, accountSid: string): string {
  return `${apiBaseUrl}/${TWILIO_API_VERSION}/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
}

/** Sends `body` as one message (Twilio splits it into segments); returns the message sid. */
export async function sendTwilioSms(args: SendTwilioSmsArgs): Promise<string> {
  const doFetch = args.fetch ?? fetch;
  const response = await doFetch(messagesUrl(args.apiBaseUrl, args.accountSid), {
    method: "POST",
    headers: {
      Authorization: basicAuthorization(args.accountSid, args.authToken),
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({
      To: args.to,
      From: args.from,
      Body: args.body,
      ...(args.messagingServiceSid ? { MessagingServiceSid: args.messagingServiceSid } : {}),
    } satisfies MessageCreateForm),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const payload: unknown = await response.json().catch(() => undefined);
  if (response.ok) {
    const created = createdSchema.safeParse(payload);
    if (!created.success) throw new Error("Twilio Messages API answered without a message sid");
    return created.data.sid;
  }
  if (response.status === 429) {
    throw new PlatformRateLimited("Twilio Messages API rate limited", retryAfterSeconds(response.headers));
  }
  const code = errorSchema.safeParse(payload).data?.code;
  const message = `Twilio Messages API answered HTTP ${response.status}${code ? ` (error ${code})` : ""}`;
  if (response.status >= 400 && response.status < 500) throw new GiveUp(message, String(code ?? response.status));
  throw new Error(message);
}

export function retryAfterSeconds(headers: Headers): number {
  const seconds = Number(headers.get("Retry-After"));
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : DEFAULT_RETRY_AFTER_SECONDS;
}
