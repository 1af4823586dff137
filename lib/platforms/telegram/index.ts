/**
 * @module
 * Telegram as a platform adapter: Bot API updates by webhook (the secret token in every delivery's header), groups,
 * supergroups with forum topics (each topic a conversation of its own) and private chats (DMs). Answers go out with
 * the bot's token: `sendMessage` in parts, streamed as drafts in private chats and as an edited message in groups,
 * "typing…" while the bot works; a confirm tool's question carries Approve and Cancel buttons (./controls.ts). The
 * Bot API cannot read a chat's history, so the ingest script keeps each chat's last messages (`keepHistory`) for a
 * conversation's start to see what was said before it.
 */
import type { PlatformAdapter, NoExtra } from "../adapter.ts";
import { jsonBody } from "../json-body.ts";
import { parseTelegramUpdate } from "./parse.ts";
import { botOfTenant } from "./place.ts";
import { sendTelegramReply } from "./send.ts";
import { botIdOf, botUsername, telegramSettings, type TelegramSettings } from "./settings.ts";
import { telegramStreaming } from "./stream.ts";
import { telegramTargetSchema, type TelegramTarget } from "./target.ts";
import { TELEGRAM_SECRET_HEADER, verifyTelegramSecret } from "./verify.ts";
import { telegramWorking } from "./working.ts";
import { telegramFiles } from "./files.ts";
import { TELEGRAM_MAX_MESSAGE_CHARS, telegramFormat } from "./format.ts";
import { OUTCOME_ROOM_CHARS, telegramControls } from "./controls.ts";
import { telegramFeedback } from "./feedback.ts";

export const telegram: PlatformAdapter<TelegramTarget, NoExtra, TelegramSettings> = {
  platform: "telegram",
  settings: telegramSettings,
  replyTargetSchema: telegramTargetSchema,
  format: telegramFormat,

  async verify(ctx, request) {
    const secret = ctx.config.TELEGRAM_WEBHOOK_SECRET;
    if (!secret) return { ok: false, reason: "not_configured" };
    return verifyTelegramSecret(secret, request.headers.get(TELEGRAM_SECRET_HEADER));
  },

  parse(ctx, request) {
    const body = jsonBody(request.rawBody);
    if (!body.ok) return { kind: "invalid", issues: body.issues };
    const botId = botIdOf(ctx.config.TELEGRAM_BOT_TOKEN ?? "");
    const parsed = parseTelegramUpdate(
      body.value,
      { id: botId, username: botUsername(ctx.config), name: ctx.settings.BOT_NAME },
      ctx.now(),
    );
    return parsed.kind === "message" ? { kind: "message", message: parsed.message, botUserId: botId } : parsed;
  },

  ingestOptions: (config) => ({ keepHistory: true, ...(config.TELEGRAM_FEEDBACK ? { feedback: true } : {}) }),

  async send(ctx, target, text, progress) {
    return sendTelegramReply(
      { apiBaseUrl: ctx.config.TELEGRAM_API_BASE_URL, token: await ctx.token(), fetch: ctx.fetch },
      target,
      text,
      progress,
    );
  },

  // Every message says who reads its chat; a job asks only for a message that did not.
  placeVisibility: async () => "private",

  // A chat is a tenant of its own under its bot (./place.ts); every chat's answers spend the bot's daily budget.
  budgetTenant: (place) => ({ platform: place.platform, tenant: botOfTenant(place.tenant) }),

  // The Bot API reads no history: what the ingest script kept of the place (keepHistory) is its history.
  readHistory: async (ctx, query) => ({ messages: await ctx.kept(query) }),

  streaming: telegramStreaming,
  working: telegramWorking,
  files: telegramFiles,
  // Only by its buttons (a bot reads no ✅ or ❌ reaction: ./reaction.ts), on the question, with room for the
  // outcome that replaces them; what follows is a new message in the same chat and topic.
  approvals: {
    way: "press",
    showsWhole: (question) => question.length <= TELEGRAM_MAX_MESSAGE_CHARS - OUTCOME_ROOM_CHARS,
    followUp: (target) => target,
    controls: telegramControls,
  },
  feedback: telegramFeedback,
};
