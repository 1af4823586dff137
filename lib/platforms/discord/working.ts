/**
 * @module
 * The sign that the bot is working on a Discord answer: for a Gateway message the typing indicator, renewed
 * before its 10 seconds run out while the answer takes longer. An interaction shows "thinking…" already.
 */
import type { ReplyContext } from "../adapter.ts";
import type { WorkingSign } from "../answer-stream.ts";
import { discordRequest } from "./rest.ts";
import type { DiscordSettings } from "./settings.ts";
import type { DiscordTarget } from "./target.ts";

/** Discord's indicator lasts 10 s: renewed a little before. */
const TYPING_RENEW_MS = 8_000;
const NONE: WorkingSign = { stop: async () => undefined };

export async function discordWorking(ctx: ReplyContext<DiscordSettings>, target: DiscordTarget): Promise<WorkingSign> {
  if (target.kind !== "channel") return NONE;
  const botToken = await ctx.token();
  const typing = () =>
    discordRequest({
      apiBaseUrl: ctx.config.DISCORD_API_BASE_URL,
      fetch: ctx.fetch,
      method: "POST",
      path: `/channels/${target.channelId}/typing`,
      what: "show typing",
      botToken,
    });
  await typing();
  const renew = setInterval(() => {
    typing().catch(() => ctx.log.warn("working_sign_failed", { platform: "discord", what: "typing" }));
  }, TYPING_RENEW_MS);
  return {
    stop: async () => clearInterval(renew),
  };
}
