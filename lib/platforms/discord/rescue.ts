/**
 * @module
 * A question nobody picked up, on Discord: the bot answers with a reply to it in its channel. What followed it is
 * read as any history is (./history.ts): the channel from the question on.
 */
import type { RescueCapability } from "../../rescue/capability.ts";
import type { DiscordTarget } from "./target.ts";

export const discordRescue: RescueCapability<DiscordTarget> = {
  under(question) {
    return {
      key: question.key,
      target: { platform: "discord", kind: "channel", channelId: question.key.channel, replyToMessageId: question.id },
    };
  },
};
