/**
 * @module
 * POST /slack/events: ssl_check, then the webhook flow (./webhook.ts: verify → url_verification → parse → ingest,
 * or on an uninstall the tenant's cleanup) → 200; the agent DM opened → 200, then its suggested prompts. GET
 * /slack/install and GET /slack/oauth/callback: the OAuth install flow, when SLACK_CLIENT_ID and SLACK_CLIENT_SECRET
 * make the app installable in many workspaces. POST /slack/commands: the `/parley` slash command
 * (./place-command.ts), answered to its user alone within Slack's 3 s. POST /slack/interactions: a press of the bot's
 * buttons (an approval's, or Stop on a streaming answer).
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { using } from "../lib/errors.ts";
import { errorMessage } from "../lib/log.ts";
import { PARLEY_COMMAND } from "../lib/places/command.ts";
import { adapterContext, replyContext } from "../lib/platforms/context.ts";
import { offerSuggestedPrompts, slackAgentOpened } from "../lib/platforms/slack/agent-surface.ts";
import { slack as adapter, isSlackSslCheck, slackOAuthClient } from "../lib/platforms/slack/index.ts";
import { parseSlackInteraction } from "../lib/platforms/slack/interaction.ts";
import { exchangeCode } from "../lib/platforms/slack/oauth/access.ts";
import { authorizeUrl, CALLBACK_PATH } from "../lib/platforms/slack/oauth/authorize.ts";
import { installedPage, installFailedPage } from "../lib/platforms/slack/oauth/pages.ts";
import { type SlackSettings, slackInstallable } from "../lib/platforms/slack/settings.ts";
import { ephemeral, parseSlackSlashCommand, slackMayManage } from "../lib/platforms/slack/slash.ts";
import { type Runtime, runtimeFor } from "../lib/runtime.ts";
import {
  newInstallState,
  STATE_COOKIE,
  STATE_TTL_SECONDS,
  type StateCheck,
  takeInstallState,
} from "../lib/tenants/install-state.ts";
import type { AppEnv } from "./app-env.ts";
import { answerPlaceCommand } from "./place-command.ts";
import { platformOn, platformWebhook, signedBy } from "./webhook.ts";

export const slack = new Hono<AppEnv>();

/** The agent DM opened: acknowledged at once, its suggested prompts put up after the acknowledgement. */
const agentOpened: MiddlewareHandler<AppEnv> = async (c, next) => {
  const opened = slackAgentOpened(c.var.webhook.rawBody);
  if (!opened) return next();
  const rt = runtimeFor(c.env);
  rt.log.info("slack_agent_opened", { tenant: opened.tenant, legacy: opened.threadTs !== undefined });
  c.executionCtx.waitUntil(offerSuggestedPrompts(replyContext(rt, adapter, opened.tenant), opened));
  return c.body(null, 200);
};

slack.post(
  "/events",
  platformOn(adapter),
  signedBy(adapter, (request) => (isSlackSslCheck(request) ? new Response(null, { status: 200 }) : null)),
  agentOpened,
  platformWebhook(adapter, {
    message: (c) => c.body(null, 200),
    nothing: (c) => c.body(null, 200),
  }),
);

slack.post(
  "/interactions",
  platformOn(adapter),
  signedBy(adapter),
  platformWebhook(
    { ...adapter, parse: (_ctx, request) => parseSlackInteraction(request) },
    { message: (c) => c.body(null, 200), nothing: (c) => c.body(null, 200) },
  ),
);

/** The slash command has no route until Slack is on, misconfigured or not. */
const commandsOn: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (runtimeFor(c.env).platforms.state(adapter.platform).status !== "on")
    return c.json({ error: "slack is not configured" }, 404);
  await next();
};

slack.post("/commands", commandsOn, signedBy(adapter), async (c) => {
  const rt = runtimeFor(c.env);
  const ctx = adapterContext(rt, adapter);
  const parsed = parseSlackSlashCommand(c.var.webhook.rawBody);
  if (!parsed.ok) {
    rt.log.warn("slack_invalid", { issues: parsed.issues });
    return c.json({ error: "unexpected slack payload", issues: parsed.issues }, 400);
  }
  const command = parsed.command;
  if (command.name !== PARLEY_COMMAND) return c.json(ephemeral(`I only know /${PARLEY_COMMAND}.`));
  const mayChange = async () => {
    const token = await replyContext(rt, adapter, command.place.tenant)
      .token()
      .catch(() => null);
    return (
      token !== null &&
      slackMayManage({ apiBaseUrl: ctx.config.SLACK_API_BASE_URL, botToken: token, fetch: ctx.fetch }, command, rt.log)
    );
  };
  // The bot's user id is its installation's (none with a single workspace's token: its mentions then stay ids).
  const origin = async () => ({
    replyTarget: { platform: "slack" as const, channel: command.place.channel },
    botUserId: (await rt.installations.get(command.place).catch(() => null))?.botUserId ?? "",
    userId: command.userId,
  });
  return c.json(ephemeral(await answerPlaceCommand(rt, command.place, command.text, mayChange, origin)));
});

const COOKIE_OPTIONS = { path: "/slack/oauth", httpOnly: true, secure: true, sameSite: "Lax" } as const;

/** Slack's settings when the app is installable in many workspaces; else the route's 404. */
function installable(c: Context<AppEnv>, rt: Runtime): SlackSettings | Response {
  const state = rt.platforms.state(adapter.platform);
  const config = state.status === "misconfigured" ? undefined : (state.config as SlackSettings);
  if (config && slackInstallable(config)) return config;
  return c.json({ error: "set SLACK_CLIENT_ID and SLACK_CLIENT_SECRET to install in many workspaces" }, 404);
}

slack.get("/install", async (c) => {
  const rt = runtimeFor(c.env);
  const config = installable(c, rt);
  if (config instanceof Response) return config;
  const started = await using("redis", () => newInstallState(rt, c.req.header("CF-Connecting-IP") ?? "unknown"));
  if ("retryAfterSeconds" in started)
    return c.json({ error: "too many installs started, try again later" }, 429, {
      "Retry-After": String(started.retryAfterSeconds),
    });
  const { state, cookie } = started;
  setCookie(c, STATE_COOKIE, cookie, { ...COOKIE_OPTIONS, maxAge: STATE_TTL_SECONDS });
  const redirectUri = `${rt.settings.PUBLIC_BASE_URL}${CALLBACK_PATH}`;
  return c.redirect(
    authorizeUrl({ apiBaseUrl: config.SLACK_API_BASE_URL, clientId: config.SLACK_CLIENT_ID!, state, redirectUri }),
    302,
  );
});

const STATE_REFUSALS: Record<Exclude<StateCheck, "ok">, string> = {
  forged: "This install link was not issued by this app.",
  expired_or_used: "This install link has expired or was already used.",
  other_browser: "This install was started in another browser.",
};

slack.get("/oauth/callback", async (c) => {
  const rt = runtimeFor(c.env);
  const config = installable(c, rt);
  if (config instanceof Response) return config;
  const { code, state, error } = c.req.query();
  const cookie = getCookie(c, STATE_COOKIE);
  deleteCookie(c, STATE_COOKIE, COOKIE_OPTIONS);
  const checked = state ? await using("redis", () => takeInstallState(rt, state, cookie)) : "forged";
  if (checked !== "ok") {
    rt.log.warn("slack_install_refused", { reason: checked });
    return c.html(installFailedPage(STATE_REFUSALS[checked]), 400);
  }
  if (error || !code) {
    rt.log.info("slack_install_cancelled", { reason: error ?? "no_code" });
    return c.html(installFailedPage("The install was cancelled in Slack."), 400);
  }
  try {
    const installation = await exchangeCode(
      slackOAuthClient(adapterContext(rt, adapter)),
      code,
      `${rt.settings.PUBLIC_BASE_URL}${CALLBACK_PATH}`,
      rt.now(),
    );
    await using("redis", () => rt.installations.put("slack", installation));
    rt.log.info("slack_installed", { tenant: installation.tenant, rotating: installation.expiresAt !== undefined });
    return c.html(installedPage(rt.settings.BOT_NAME, installation.teamName ?? installation.tenant));
  } catch (err) {
    rt.log.error("slack_install_failed", { error: errorMessage(err) });
    return c.html(installFailedPage("Slack did not confirm the install."), 502);
  }
});
