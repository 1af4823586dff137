/**
 * @module
 * Discord as a platform adapter: interactions (`/ask`, "Ask <bot> about this", `/forget`) signed with Ed25519 and
 * answered by editing their deferred message; channel messages come over the Gateway (functions/discord-gateway.ts)
 * and are answered in the channel with the bot token; a confirm tool's question carries Approve and Cancel buttons,
 * pressed as interactions of type 3 (./controls.ts, ./component.ts).
 */
import type { PlatformAdapter, NoExtra } from "../adapter.ts";
import { jsonBody } from "../json-body.ts";
import { fetchDiscordParent } from "./parent.ts";
import { discordAskerLacks } from "./asker-permissions.ts";
import { discordFiles } from "./files.ts";
import { DISCORD_MAX_MESSAGE_CHARS, discordFormat } from "./format.ts";
import { discordJumpLink, readDiscordHistory } from "./history.ts";
import { DM_TENANT_PREFIX, parseDiscordInteraction } from "./parse.ts";
import { discordRescue } from "./rescue.ts";
import { PONG } from "./responses.ts";
import { sendDiscordReply } from "./send.ts";
import { discordStreaming } from "./stream.ts";
import { discordSettings, type DiscordSettings } from "./settings.ts";
import { discordTargetSchema, type DiscordTarget } from "./target.ts";
import { DISCORD_SIGNATURE_HEADER, DISCORD_TIMESTAMP_HEADER, verifyDiscordRequest } from "./verify.ts";
import { discordPersonalDigests } from "./personal-digests.ts";
import { discordPlaceVisibility } from "./visibility.ts";
import { discordWorking } from "./working.ts";
import { discordControls, OUTCOME_ROOM_CHARS } from "./controls.ts";
import { discordFeedback } from "./feedback.ts";
import { discordStop } from "./stop.ts";

export const discord: PlatformAdapter<DiscordTarget, NoExtra, DiscordSettings> = {
  platform: "discord",
  settings: discordSettings,
  replyTargetSchema: discordTargetSchema,
  format: discordFormat,

  async verify(ctx, request) {
    const publicKey = ctx.config.DISCORD_PUBLIC_KEY;
    if (!publicKey) return { ok: false, reason: "not_configured" };
    return verifyDiscordRequest({
      publicKey,
      signature: request.headers.get(DISCORD_SIGNATURE_HEADER),
      timestamp: request.headers.get(DISCORD_TIMESTAMP_HEADER),
      rawBody: request.rawBody,
      nowSeconds: Math.floor(ctx.now() / 1000),
    });
  },

  parse(ctx, request) {
    const body = jsonBody(request.rawBody);
    if (!body.ok) return { kind: "invalid", issues: body.issues };
    const parsed = parseDiscordInteraction(body.value, { now: ctx.now() });
    switch (parsed.kind) {
      case "ping":
        return { kind: "protocol", response: Response.json(PONG) };
      case "unsupported":
        return { kind: "ignored", reason: parsed.reason };
      case "message":
        // The signature was made with our key, so the application it names is this bot.
        return { kind: "message", message: parsed.message, botUserId: parsed.applicationId };
      case "control":
      case "invalid":
        return parsed;
    }
  },

  ingestOptions: () => ({ placeSettings: true }),

  send(ctx, target, text, progress) {
    const config = {
      apiBaseUrl: ctx.config.DISCORD_API_BASE_URL,
      botToken: ctx.token,
      now: ctx.now,
      log: ctx.log,
      fetch: ctx.fetch,
    };
    return sendDiscordReply(config, target, text, progress);
  },

  placeVisibility: discordPlaceVisibility,

  // A DM is a tenant of its own (its keys apart from every guild's), but its answers spend the application's budget.
  budgetTenant: (place, bot) =>
    place.tenant.startsWith(DM_TENANT_PREFIX) ? { platform: place.platform, tenant: `app:${bot.userId}` } : place,

  fetchParent: fetchDiscordParent,
  placeParents: true,
  readHistory: readDiscordHistory,
  // An interaction's member.permissions decided already (InboundMessage.historyHidden); a DM is the asker's own.
  askerLacks: async (ctx, { place, asker, target }) =>
    target.kind === "interaction" || place.tenant.startsWith(DM_TENANT_PREFIX)
      ? null
      : discordAskerLacks(ctx, place, asker),
  messageLink: discordJumpLink,
  streaming: discordStreaming,
  working: discordWorking,
  files: discordFiles,
  rescue: discordRescue,
  // An interaction's answer edits its deferred response: what follows it is a channel message of its own.
  approvals: {
    // Room left under the question for its outcome, which replaces the buttons on the same message (./controls.ts).
    showsWhole: (question) => question.length <= DISCORD_MAX_MESSAGE_CHARS - OUTCOME_ROOM_CHARS,
    followUp: (target, place) =>
      target.kind === "interaction" ? { platform: "discord", kind: "channel", channelId: place.channel } : target,
    controls: discordControls,
  },
  feedback: discordFeedback,
  personalDigests: discordPersonalDigests,
  stop: discordStop,
};
