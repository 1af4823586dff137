/**
 * @module
 * POST /twilio/sms (SMS and WhatsApp alike): the webhook flow (./webhook.ts; a short delay before the job so that a
 * burst gets one answer) → TwiML at once. The answer goes out later, from the job, through the Messages API.
 * Carrier keywords are recorded and never sent to the model; a WhatsApp STOP or START is confirmed right here in the
 * TwiML (Twilio confirms them on SMS only), but not a YES that answered a confirm tool's question. Pictures are
 * answered like words, by the job (docs/files.md).
 */
import { type Context, Hono } from "hono";
import type { IngestResult } from "../lib/ingest.ts";
import { twilio as adapter, type TwilioParseExtra } from "../lib/platforms/twilio/index.ts";
import { EMPTY_TWIML, messageTwiml, TWIML_CONTENT_TYPE } from "../lib/platforms/twilio/twiml.ts";
import { WHATSAPP_KEYWORD_ANSWERS } from "../lib/platforms/twilio/whatsapp.ts";
import { runtimeFor } from "../lib/runtime.ts";
import type { AppEnv } from "./app-env.ts";
import { type MessageDelivery, platformOn, platformWebhook, signedBy } from "./webhook.ts";

export const twilio = new Hono<AppEnv>();

twilio.post(
  "/sms",
  platformOn(adapter),
  signedBy(adapter),
  platformWebhook(adapter, {
    message: answerText,
    nothing: (c) => twiml(c, EMPTY_TWIML),
  }),
);

function answerText(
  c: Context<AppEnv>,
  delivery: MessageDelivery<TwilioParseExtra>,
  { status }: IngestResult,
  answeredApproval: boolean,
): Response {
  const rt = runtimeFor(c.env);
  const { message, keyword, whatsapp } = delivery;
  const where = { tenant: message.key.tenant, message: message.id, status, channel: whatsapp ? "whatsapp" : "sms" };
  // Recorded first, so a repeated delivery is not answered twice (a keyword never gets a job: seen is enough).
  const repeated = status === "duplicate" || status === "unpublished";
  if (keyword) {
    rt.log.info("sms_keyword", { ...where, keyword });
    // A YES that answered a pending approval is not welcomed back: its answer is the approval's result.
    const answer = whatsapp && keyword !== "help" && !answeredApproval ? WHATSAPP_KEYWORD_ANSWERS[keyword] : undefined;
    return twiml(c, answer && !repeated ? messageTwiml(answer) : EMPTY_TWIML);
  }
  return twiml(c, EMPTY_TWIML);
}

function twiml(c: Context<AppEnv>, body: string): Response {
  return c.body(body, 200, { "Content-Type": TWIML_CONTENT_TYPE });
}
