/**
 * @module
 * Slack as a platform adapter: Events API deliveries signed with the v0 scheme, answers posted with
 * `chat.postMessage` in the channel or thread the message was written in. Installable in many workspaces
 * (./oauth/): each answer then goes out with the token of its workspace's installation.
 */
import type { AdapterContext, PlatformAdapter, WebhookRequest, NoExtra } from "../adapter.ts";
import { refreshBotToken, type OAuthClient } from "./oauth/access.ts";
import { jsonBody } from "../json-body.ts";
import { fetchSlackParent } from "./parent.ts";
import { slackFiles } from "./files.ts";
import { slackFormat } from "./format.ts";
import { readSlackHistory, SLACK_TIER_3_PER_MINUTE, slackPermalink } from "./history.ts";
import { slackRescue } from "./rescue.ts";
import { parseSlackEvent } from "./parse.ts";
import { postSlackMessage, SLACK_MAX_MESSAGE_CHARS } from "./send.ts";
import { slackStreaming } from "./stream.ts";
import { slackWorking } from "./working.ts";
import { slackFeedback } from "./feedback.ts";
import { slackStop } from "./stop.ts";
import { slackControls } from "./controls.ts";
import { titleSlackThread } from "./agent-surface.ts";
import { slackInstallable, slackSettings, type SlackSettings } from "./settings.ts";
import { slackTargetSchema, type SlackTarget } from "./target.ts";
import { SLACK_SIGNATURE_HEADER, SLACK_TIMESTAMP_HEADER, verifySlackRequest } from "./verify.ts";
import { slackPersonalDigests } from "./personal-digests.ts";
import { slackVisibility } from "./visibility.ts";

/** Slack's ssl_check: an unsigned form post that only wants a 200, answered before any signature check. */
export function isSlackSslCheck(request: WebhookRequest): boolean {
  if (!request.headers.get("Content-Type")?.startsWith("application/x-www-form-urlencoded")) return false;
  return new URLSearchParams(request.rawBody).get("ssl_check") === "1";
}

/** The app's OAuth client, at the same Web API base as every other call. */
export function slackOAuthClient(ctx: AdapterContext<SlackSettings>): OAuthClient {
  const s = ctx.config;
  return {
    apiBaseUrl: s.SLACK_API_BASE_URL,
    clientId: s.SLACK_CLIENT_ID ?? "",
    clientSecret: s.SLACK_CLIENT_SECRET ?? "",
    fetch: ctx.fetch,
  };
}

export const slack: PlatformAdapter<SlackTarget, NoExtra, SlackSettings> = {
  platform: "slack",
  settings: slackSettings,
  replyTargetSchema: slackTargetSchema,
  format: slackFormat,
  installs: {
    enabled: slackInstallable,
    refresh: (ctx, refreshToken) => refreshBotToken(slackOAuthClient(ctx), refreshToken, ctx.now()),
  },

  async verify(ctx, request) {
    const secret = ctx.config.SLACK_SIGNING_SECRET;
    if (!secret) return { ok: false, reason: "not_configured" };
    return verifySlackRequest({
      signingSecret: secret,
      timestamp: request.headers.get(SLACK_TIMESTAMP_HEADER),
      signature: request.headers.get(SLACK_SIGNATURE_HEADER),
      rawBody: request.rawBody,
      nowSeconds: Math.floor(ctx.now() / 1000),
    });
  },

  parse(ctx, request) {
    const body = jsonBody(request.rawBody);
    if (!body.ok) return { kind: "invalid", issues: body.issues };
    const parsed = parseSlackEvent(body.value, { botName: ctx.settings.BOT_NAME });
    switch (parsed.kind) {
      case "url_verification":
        return { kind: "protocol", response: Response.json({ challenge: parsed.challenge }) };
      case "message":
        return {
          kind: "message",
          message: parsed.message,
          botUserId: parsed.bot.userId,
          installation: parsed.installation,
        };
      case "removed":
        return parsed;
      default:
        return parsed;
    }
  },

  // The working sign goes up from the webhook, right after its acknowledgement (lib/jobs/working-sign.ts).
  ingestOptions: () => ({ signByWebhook: true, placeSettings: true }),

  async send(ctx, target, text, progress) {
    return postSlackMessage({
      apiBaseUrl: ctx.config.SLACK_API_BASE_URL,
      botToken: await ctx.token(),
      channel: target.channel,
      threadTs: target.threadTs,
      text,
      tenant: ctx.tenant,
      fetch: ctx.fetch,
      log: ctx.log,
      progress,
    });
  },

  // Every message says it; a job only asks for one whose payload predates visibilities.
  placeVisibility: async (_ctx, place) => slackVisibility(place.channel, undefined),

  async fetchParent(ctx, about) {
    // Tier 3, counted per workspace: many threads starting at once must not spend it into 429s. Without room the
    // answer goes without its parent this time, and the conversation's next answer asks again (lib/jobs/parent.ts).
    if (!(await ctx.callBudget("conversations.replies", SLACK_TIER_3_PER_MINUTE))) {
      throw new Error("no room in the workspace's conversations.replies budget");
    }
    return fetchSlackParent(
      { apiBaseUrl: ctx.config.SLACK_API_BASE_URL, botToken: await ctx.token(), fetch: ctx.fetch },
      about,
    );
  },
  readHistory: readSlackHistory,
  messageLink: slackPermalink,
  streaming: slackStreaming,
  working: slackWorking,
  titleConversation: titleSlackThread,
  files: slackFiles,
  rescue: slackRescue,
  // A new message in the same channel or thread: a Slack post never replaces another.
  approvals: {
    followUp: (target) => target,
    showsWhole: (question) => question.length <= SLACK_MAX_MESSAGE_CHARS,
    controls: slackControls,
  },
  feedback: slackFeedback,
  personalDigests: slackPersonalDigests,
  stop: slackStop,
};
