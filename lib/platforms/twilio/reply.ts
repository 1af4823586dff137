/**
 * @module
 * The job's last step for SMS: fit the answer to SMS, send it, and remember an opt-out that Twilio reports (21610)
 * so that later jobs do not even try. Whether the number opted out was checked once, before the model was called
 * (the adapter's canReach).
 */
import { GiveUp } from "../../errors.ts";
import type { ReplyContext } from "../adapter.ts";
import { countSmsSegments, fitSmsReply, toGsm7Lookalikes } from "./sms-text.ts";
import { sendTwilioSms, TWILIO_OPTED_OUT_CODE } from "./send.ts";
import type { TwilioTarget } from "./target.ts";

/** Sends the answer as one SMS; returns its message sid. */
export async function sendSmsReply(ctx: ReplyContext, target: TwilioTarget, text: string): Promise<string[]> {
  const body = fitSmsReply(text, ctx.settings.SMS_REPLY_TARGET_CHARS);
  const { encoding, segments } = countSmsSegments(body);
  const cut = body.length < toGsm7Lookalikes(text).trim().length;
  ctx.log.info("sms_reply_fitted", { chars: body.length, cut, encoding, segments });
  try {
    const sid = await sendTwilioSms({
      apiBaseUrl: ctx.settings.TWILIO_API_BASE_URL,
      accountSid: target.accountSid,
      authToken: await ctx.token(),
      to: target.to,
      from: target.from,
      body,
      fetch: ctx.fetch,
    });
    return [sid];
  } catch (err) {
    if (err instanceof GiveUp && err.code === String(TWILIO_OPTED_OUT_CODE)) {
      await ctx.optOuts.record({ platform: "twilio", tenant: target.accountSid }, target.to, "opt_out");
      ctx.log.warn("sms_opted_out", { account: target.accountSid, reason: "twilio_21610" });
    }
    throw err;
  }
}
