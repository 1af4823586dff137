/**
 * @module
 * Maps a reply target to its platform: who may be messaged, and how an answer is posted. The only place where the
 * job flow meets platform code.
 */
import { GiveUp } from "../lib/errors.ts";
import type { Replier } from "../lib/pipeline.ts";
import { sendDiscordReply } from "../lib/platforms/discord/send.ts";
import { postSlackMessage } from "../lib/platforms/slack/send.ts";
import { SmsOptOuts } from "../lib/platforms/twilio/opt-out.ts";
import { sendSmsReply } from "../lib/platforms/twilio/reply.ts";
import type { Runtime } from "../lib/runtime.ts";

export function replier(rt: Runtime): Replier {
  const s = rt.settings;
  const smsOptOuts = new SmsOptOuts(rt.redis, s.REDIS_KEY_PREFIX);
  const canReach: Replier["canReach"] = async (target) =>
    target.platform !== "twilio" || !(await smsOptOuts.isOptedOut(target.accountSid, target.to));
  const send: Replier["send"] = async (target, text, parts) => {
    switch (target.platform) {
      case "slack":
        if (!s.SLACK_BOT_TOKEN) throw new GiveUp("SLACK_BOT_TOKEN is not set", "not_configured");
        return postSlackMessage({
          apiBaseUrl: s.SLACK_API_BASE_URL,
          botToken: s.SLACK_BOT_TOKEN,
          channel: target.channel,
          threadTs: target.threadTs,
          text,
          skipChunks: parts?.from,
          onChunkPosted: (index) => parts?.onPart(index),
        });
      case "discord":
        return sendDiscordReply({ apiBaseUrl: s.DISCORD_API_BASE_URL, botToken: s.DISCORD_BOT_TOKEN, now: rt.now, log: rt.log }, target, text, parts);
      case "twilio":
        if (!s.TWILIO_AUTH_TOKEN) throw new GiveUp("TWILIO_AUTH_TOKEN is not set", "not_configured");
        return sendSmsReply(
          {
            apiBaseUrl: s.TWILIO_API_BASE_URL,
            authToken: s.TWILIO_AUTH_TOKEN,
            targetChars: s.SMS_REPLY_TARGET_CHARS,
            optOuts: smsOptOuts,
            log: rt.log,
          },
          target,
          text,
        );
    }
  };
  return { canReach, send };
}
