/**
 * @module
 * Twilio SMS and WhatsApp as a platform adapter: inbound texts signed with X-Twilio-Signature over our public URL,
 * to any of the bot's numbers or its Messaging Service (./numbers.ts), every text answered (a burst once), answers
 * sent through the Messages API from the address written to. Carrier keywords (STOP, START, HELP...) are recorded
 * and never answered by the model: on SMS Twilio answers them itself; on WhatsApp the route confirms STOP and START
 * (./whatsapp.ts). STOP and START change whether the address may be messaged. A confirm tool's question is answered
 * by a text that is just YES or NO (docs/tools.md).
 */
import type { PlatformAdapter } from "../adapter.ts";
import { approvalReply, carrierKeyword, type CarrierKeyword } from "./keywords.ts";
import { reachedBot } from "./numbers.ts";
import { parseTwilioSms, toInboundMessage } from "./parse.ts";
import { twilioFiles } from "./files.ts";
import { twilioFormat } from "./format.ts";
import { sendSmsReply, sentWhole } from "./reply.ts";
import { smsLengthNote } from "./sms-text.ts";
import { twilioSettings, type TwilioSettings } from "./settings.ts";
import { twilioTargetSchema, type TwilioTarget } from "./target.ts";
import { TWILIO_SIGNATURE_HEADER, verifyTwilioSignature } from "./verify.ts";
import { isWhatsApp, whatsappKeyword, whatsappNote } from "./whatsapp.ts";

/** Where Twilio posts: the signature covers PUBLIC_BASE_URL + this path + the query string. */
const TWILIO_WEBHOOK_PATH = "/twilio/sms";

/** What the route needs to answer a text: TwiML answers a WhatsApp STOP or START at once. */
export interface TwilioParseExtra {
  keyword: CarrierKeyword | null;
  whatsapp: boolean;
}

const CONSENT = { opt_out: "opt_out", opt_in: "opt_in", help: undefined } as const;

export const twilio: PlatformAdapter<TwilioTarget, TwilioParseExtra, TwilioSettings> = {
  platform: "twilio",
  settings: twilioSettings,
  replyTargetSchema: twilioTargetSchema,
  format: twilioFormat,

  async verify(ctx, request) {
    const authToken = ctx.config.TWILIO_AUTH_TOKEN;
    if (!authToken) return { ok: false, reason: "not_configured" };
    const signature = request.headers.get(TWILIO_SIGNATURE_HEADER);
    if (!signature) return { ok: false, reason: "missing_headers" };
    const valid = await verifyTwilioSignature({
      authToken,
      // Twilio signs the URL configured on the number: our public URL, not the one this request reached us at.
      url: `${ctx.settings.PUBLIC_BASE_URL}${TWILIO_WEBHOOK_PATH}${new URL(request.url).search}`,
      params: new URLSearchParams(request.rawBody),
      signature,
    });
    return valid ? { ok: true } : { ok: false, reason: "bad_signature" };
  },

  parse(ctx, request) {
    const parsed = parseTwilioSms(new URLSearchParams(request.rawBody));
    if (!parsed.ok) return { kind: "invalid", issues: parsed.issues };
    if (!reachedBot(ctx.config, parsed.sms)) return { kind: "ignored", reason: "not_a_bot_number" };
    const whatsapp = isWhatsApp(parsed.sms.From);
    const keyword = whatsapp ? whatsappKeyword(parsed.sms.Body) : carrierKeyword(parsed.sms.Body);
    const consent = keyword ? CONSENT[keyword] : undefined;
    const message = {
      ...toInboundMessage(parsed.sms, ctx.now()),
      // Twilio (SMS) or the route (WhatsApp) answers keywords in the TwiML; a picture is answered like words.
      ...(keyword ? { noReply: true } : {}),
      ...(consent ? { consent } : {}),
    };
    // The model is told it is on WhatsApp and how long it may be.
    const options = whatsapp ? { systemNotes: [whatsappNote()] } : {};
    const reply = approvalReply(parsed.sms.Body);
    return {
      kind: "message",
      message,
      botUserId: parsed.sms.To,
      keyword,
      whatsapp,
      options,
      ...(reply ? { approvalReply: reply } : {}),
    };
  },

  ingestOptions: (settings) => ({
    alwaysAnswer: true,
    delaySeconds: settings.SMS_BURST_WINDOW_SECONDS,
    systemNotes: [smsLengthNote(settings.SMS_REPLY_TARGET_CHARS)],
    // Keyed by the address: a WhatsApp STOP leaves the same number's SMS alone, and the other way round.
    optOuts: true,
    // Senders are phone numbers, and so is half of every SMS channel (`To|From`).
    logIds: "pseudonym",
  }),

  send: sendSmsReply,

  // A text is between one person and the bot.
  placeVisibility: async () => "dm",
  files: twilioFiles,
  // A text has no reactions: the asker (the only person there) replies YES or NO; the result is a text of its own.
  approvals: {
    way: "reply",
    followUp: (target) => target,
    showsWhole: (question, target, config) => sentWhole(config, target, question),
  },
};
