/**
 * @module
 * The job's last step for SMS: fit the answer to SMS, send it (unless an earlier attempt's text is found among
 * the texts sent to the person), and remember an opt-out that Twilio reports (21610) so that later jobs do not
 * even try. Whether the number opted out was checked once, before the model was called (the adapter's canReach).
 */
import { GiveUp } from "../../errors.ts";
import type { PartProgress } from "../../message.ts";
import type { ReplyContext } from "../adapter.ts";
import { postParts } from "../parts.ts";
import { findSentSms } from "./find-sent.ts";
import { countSmsSegments, fitSmsReply, toGsm7Lookalikes } from "./sms-text.ts";
import { sendTwilioSms, TWILIO_OPTED_OUT_CODE } from "./send.ts";
import type { TwilioTarget } from "./target.ts";

/** Sends the answer as one SMS; returns its message sid (or that of the earlier attempt's text, found). */
export async function sendSmsReply(ctx: ReplyContext, target: TwilioTarget, text: string, progress: PartProgress): Promise<string[]> {
  const body = fitSmsReply(text, ctx.settings.SMS_REPLY_TARGET_CHARS);
  const { encoding, segments } = countSmsSegments(body);
  const cut = body.length < toGsm7Lookalikes(text).trim().length;
  const account = { apiBaseUrl: ctx.settings.TWILIO_API_BASE_URL, accountSid: target.accountSid, authToken: await ctx.token(), fetch: ctx.fetch };
  const place = { ...account, to: target.to, from: target.from };
  return postParts([body], progress, {
    async post(part) {
      ctx.log.info("sms_reply_fitted", { chars: part.length, cut, encoding, segments });
      try {
        return await sendTwilioSms({ ...place, body: part });
      } catch (err) {
        if (err instanceof GiveUp && err.code === String(TWILIO_OPTED_OUT_CODE)) {
          await ctx.optOuts.record({ platform: "twilio", tenant: target.accountSid }, target.to, "opt_out");
          ctx.log.warn("sms_opted_out", { account: target.accountSid, reason: "twilio_21610" });
        }
        throw err;
      }
    },
    find: (part, _index, since) => findSentSms({ ...place, body: part, since }),
  });
}
