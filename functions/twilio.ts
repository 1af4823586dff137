/**
 * @module
 * POST /twilio/sms: verify → parse → record (carrier keywords and media-only messages are never sent to the model)
 * → ingest with a short delay so that a burst gets one answer → empty TwiML at once. The answer goes out later,
 * from the job, through the Messages API.
 */
import { Hono, type Context } from "hono";
import type { InboundMessage } from "../lib/message.ts";
import { ingest } from "../lib/pipeline.ts";
import { carrierKeyword, type CarrierKeyword } from "../lib/platforms/twilio/keywords.ts";
import { SmsOptOuts } from "../lib/platforms/twilio/opt-out.ts";
import { isMediaOnly, parseTwilioSms, toInboundMessage } from "../lib/platforms/twilio/parse.ts";
import { EMPTY_TWIML, messageTwiml, TWIML_CONTENT_TYPE } from "../lib/platforms/twilio/twiml.ts";
import { TWILIO_SIGNATURE_HEADER, verifyTwilioSignature } from "../lib/platforms/twilio/verify.ts";
import { botIdentity, runtimeFor, type Runtime } from "../lib/runtime.ts";
import { using } from "../lib/errors.ts";
import { smsLengthNote } from "../lib/platforms/twilio/sms-text.ts";
import type { AppEnv } from "./http.ts";

const WEBHOOK_PATH = "/twilio/sms";
export const MEDIA_ONLY_ANSWER = "Sorry, I can only read text messages. Could you type your question?";

export const twilio = new Hono<AppEnv>();

twilio.post("/sms", async (c) => {
  const rt = runtimeFor(c.env);
  const authToken = rt.settings.TWILIO_AUTH_TOKEN;
  if (!rt.platforms.twilio || !authToken) return c.json({ error: "twilio is not configured" }, 404);
  // Decoded by hand: workerd warns when .text() reads a body whose type is not text/*.
  const form = new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer()));
  const verified = await verifyTwilioSignature({
    authToken,
    // Twilio signs the URL configured on the number: our public URL, not the one this request reached us at.
    url: `${rt.settings.PUBLIC_BASE_URL}${WEBHOOK_PATH}${new URL(c.req.url).search}`,
    params: form,
    signature: c.req.header(TWILIO_SIGNATURE_HEADER) ?? null,
  });
  if (!verified) {
    rt.log.warn("twilio_rejected", { reason: "bad_signature" });
    return c.json({ error: "invalid signature" }, 403);
  }
  const parsed = parseTwilioSms(form);
  if (!parsed.ok) {
    rt.log.warn("twilio_invalid", { issues: parsed.issues });
    return c.json({ error: "unexpected webhook shape", issues: parsed.issues }, 400);
  }
  const msg = toInboundMessage(parsed.sms, rt.now());
  const bot = botIdentity(rt, parsed.sms.To);
  const keyword = carrierKeyword(parsed.sms.Body);
  if (keyword) {
    // Twilio answers keywords itself; kept in the conversation, never answered by the bot.
    await using("redis", () => recordKeyword(rt, { ...msg, noReply: true }, keyword));
    return twiml(c, EMPTY_TWIML);
  }
  // Answered right here in the TwiML, so no job may take it for the message to answer.
  if (isMediaOnly(parsed.sms)) return twiml(c, await using("redis", () => answerMediaOnly(rt, { ...msg, noReply: true })));
  await ingest(rt, msg, bot, {
    alwaysAnswer: true,
    delaySeconds: rt.settings.SMS_BURST_WINDOW_SECONDS,
    systemNotes: [smsLengthNote(rt.settings.SMS_REPLY_TARGET_CHARS)],
  });
  return twiml(c, EMPTY_TWIML);
});

function twiml(c: Context<AppEnv>, body: string): Response {
  return c.body(body, 200, { "Content-Type": TWIML_CONTENT_TYPE });
}

/**
 * Twilio answers the keyword itself; the bot only keeps it in the conversation and, for STOP/START, remembers
 * whether the number may be texted (two round trips, run together).
 */
async function recordKeyword(rt: Runtime, msg: InboundMessage, keyword: CarrierKeyword): Promise<void> {
  const optOuts = new SmsOptOuts(rt.redis, rt.settings.REDIS_KEY_PREFIX);
  const { tenant } = msg.key;
  const number = msg.author.id;
  const optState =
    keyword === "opt_out" ? optOuts.optOut(tenant, number) : keyword === "opt_in" ? optOuts.optIn(tenant, number) : undefined;
  await Promise.all([rt.store.record(msg, { startIfIdle: true, reset: false }), optState]);
  rt.log.info("sms_keyword", { tenant, message: msg.id, keyword });
}

/** Recorded (so a retried delivery is not answered twice), answered at once in the TwiML. */
async function answerMediaOnly(rt: Runtime, msg: InboundMessage): Promise<string> {
  const { status } = await rt.store.record(msg, { startIfIdle: true, reset: false });
  rt.log.info("sms_media_only", { tenant: msg.key.tenant, message: msg.id, status });
  return status === "duplicate" ? EMPTY_TWIML : messageTwiml(MEDIA_ONLY_ANSWER);
}
