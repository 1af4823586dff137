/**
 * @module
 * POST /twilio/sms (SMS and WhatsApp alike): the webhook flow (./webhook.ts; a short delay before the job so that a
 * burst gets one answer) → TwiML at once. The answer goes out later, from the job, through the Messages API.
 * Carrier keywords and pictures without words are recorded and never sent to the model; a picture gets a short
 * answer right here in the TwiML, and so does a WhatsApp STOP or START (Twilio confirms them on SMS only).
 */
import { Hono, type Context } from "hono";
import type { IngestResult } from "../lib/ingest.ts";
import { MEDIA_ONLY_ANSWER } from "../lib/notices.ts";
import { twilio as adapter, type TwilioParseExtra } from "../lib/platforms/twilio/index.ts";
import { EMPTY_TWIML, messageTwiml, TWIML_CONTENT_TYPE } from "../lib/platforms/twilio/twiml.ts";
import { WHATSAPP_KEYWORD_ANSWERS } from "../lib/platforms/twilio/whatsapp.ts";
import { runtimeFor } from "../lib/runtime.ts";
import type { AppEnv } from "./app-env.ts";
import { platformWebhook, type MessageDelivery } from "./webhook.ts";

export const twilio = new Hono<AppEnv>();

twilio.post(
  "/sms",
  platformWebhook(adapter, {
    message: answerText,
    nothing: (c) => twiml(c, EMPTY_TWIML),
  }),
);

function answerText(c: Context<AppEnv>, delivery: MessageDelivery<TwilioParseExtra>, { status }: IngestResult): Response {
  const rt = runtimeFor(c.env);
  const { message, keyword, mediaOnly, whatsapp } = delivery;
  const where = { tenant: message.key.tenant, message: message.id, status, channel: whatsapp ? "whatsapp" : "sms" };
  // Recorded first, so a repeated delivery is not answered twice (a picture or keyword never gets a job: seen is enough).
  const repeated = status === "duplicate" || status === "unpublished";
  if (keyword) {
    rt.log.info("sms_keyword", { ...where, keyword });
    const answer = whatsapp && keyword !== "help" ? WHATSAPP_KEYWORD_ANSWERS[keyword] : undefined;
    return twiml(c, answer && !repeated ? messageTwiml(answer) : EMPTY_TWIML);
  }
  if (!mediaOnly) return twiml(c, EMPTY_TWIML);
  rt.log.info("sms_media_only", where);
  return twiml(c, repeated ? EMPTY_TWIML : messageTwiml(MEDIA_ONLY_ANSWER));
}

function twiml(c: Context<AppEnv>, body: string): Response {
  return c.body(body, 200, { "Content-Type": TWIML_CONTENT_TYPE });
}
