/**
 * @module
 * The job's last step for SMS and WhatsApp: render the answer for the channel (./format.ts), fit it, send it (unless an
 * earlier attempt's text is found among
 * the texts sent to the person), and remember an opt-out that Twilio reports (21610) so that later jobs do not
 * even try. Whether the person opted out is the core's to check, before the model call and before every send
 * (IngestOptions `optOuts`).
 */
import { GiveUp } from "../../errors.ts";
import type { PartProgress } from "../../message.ts";
import type { LogFields } from "../../log.ts";
import type { ReplyContext } from "../adapter.ts";
import type { TwilioSettings } from "./settings.ts";
import { postParts } from "../parts.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { findSentSms } from "./find-sent.ts";
import { smsText, whatsappText } from "./format.ts";
import { countSmsSegments, fitSmsReply, toGsm7Lookalikes } from "./sms-text.ts";
import { sendTwilioSms, TWILIO_OPTED_OUT_CODE } from "./send.ts";
import type { TwilioTarget } from "./target.ts";
import { fitWhatsAppReply, isWhatsApp } from "./whatsapp.ts";

/** The body to send and what the log says about it: SMS segments, or a WhatsApp message's length. */
function fitted(
  config: TwilioSettings,
  target: TwilioTarget,
  text: string,
): { body: string; event: string; fields: LogFields & { cut: boolean } } {
  if (isWhatsApp(target.to)) {
    const rendered = whatsappText(text);
    const body = fitWhatsAppReply(rendered);
    return {
      body,
      event: "whatsapp_reply_fitted",
      fields: { chars: body.length, cut: body.length < rendered.length },
    };
  }
  const rendered = toGsm7Lookalikes(smsText(text));
  const body = fitSmsReply(rendered, config.SMS_REPLY_TARGET_CHARS);
  const { encoding, segments } = countSmsSegments(body);
  return {
    body,
    event: "sms_reply_fitted",
    fields: { chars: body.length, cut: body.length < rendered.trim().length, encoding, segments },
  };
}

/** Whether `text` goes out as one text, nothing of it cut. */
export function sentWhole(config: TwilioSettings, target: TwilioTarget, text: string): boolean {
  return !fitted(config, target, text).fields.cut;
}

/** Sends the answer as one text; returns its message sid (or that of the earlier attempt's text, found). */
export async function sendSmsReply(
  ctx: ReplyContext<TwilioSettings>,
  target: TwilioTarget,
  text: string,
  progress: PartProgress,
): Promise<string[]> {
  const { body, event, fields } = fitted(ctx.config, target, text);
  const account = {
    apiBaseUrl: ctx.config.TWILIO_API_BASE_URL,
    accountSid: target.accountSid,
    authToken: await ctx.token(),
    fetch: ctx.fetch,
  };
  const place = {
    ...account,
    to: target.to,
    from: target.from,
    ...(target.messagingServiceSid ? { messagingServiceSid: target.messagingServiceSid } : {}),
  };
  return postParts([body], progress, {
    async post(part) {
      ctx.log.info(event, fields);
      try {
        return await waitingOutRateLimits(() => sendTwilioSms({ ...place, body: part }));
      } catch (err) {
        if (err instanceof GiveUp && err.code === String(TWILIO_OPTED_OUT_CODE)) {
          await ctx.optOuts.record({ platform: "twilio", tenant: target.accountSid }, target.to, "opt_out");
          ctx.log.warn("sms_opted_out", { account: target.accountSid, reason: "twilio_21610" });
        }
        throw err;
      }
    },
    find: (part, _index, since) => waitingOutRateLimits(() => findSentSms({ ...place, body: part, since })),
  });
}
