/**
 * @module
 * The job's last step for SMS: never text a number that opted out, fit the answer to SMS, send it, and remember
 * an opt-out that Twilio reports (21610) so that later jobs do not even try.
 */
import { GiveUp } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import type { ReplyTarget } from "../../message.ts";
import type { SmsOptOuts } from "./opt-out.ts";
import { countSmsSegments, fitSmsReply, toGsm7Lookalikes } from "./sms-text.ts";
import { sendTwilioSms, TWILIO_OPTED_OUT_CODE } from "./send.ts";

export const OPTED_OUT_GIVE_UP_CODE = "opted_out";

export interface SmsReplyDeps {
  apiBaseUrl: string;
  authToken: string;
  targetChars: number;
  optOuts: SmsOptOuts;
  log: Logger;
  fetch?: typeof fetch;
}

type TwilioTarget = Extract<ReplyTarget, { platform: "twilio" }>;

/** Sends the answer as one SMS; returns its message sid. Throws GiveUp when the number has opted out. */
export async function sendSmsReply(deps: SmsReplyDeps, target: TwilioTarget, text: string): Promise<string[]> {
  if (await deps.optOuts.isOptedOut(target.accountSid, target.to)) {
    throw new GiveUp("the number has opted out of texts", OPTED_OUT_GIVE_UP_CODE);
  }
  const body = fitSmsReply(text, deps.targetChars);
  const { encoding, segments } = countSmsSegments(body);
  const cut = body.length < toGsm7Lookalikes(text).trim().length;
  deps.log.info("sms_reply_fitted", { chars: body.length, cut, encoding, segments });
  try {
    const sid = await sendTwilioSms({
      apiBaseUrl: deps.apiBaseUrl,
      accountSid: target.accountSid,
      authToken: deps.authToken,
      to: target.to,
      from: target.from,
      body,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
    return [sid];
  } catch (err) {
    if (err instanceof GiveUp && err.code === String(TWILIO_OPTED_OUT_CODE)) {
      await deps.optOuts.optOut(target.accountSid, target.to);
      deps.log.warn("sms_opted_out", { account: target.accountSid, reason: "twilio_21610" });
    }
    throw err;
  }
}
