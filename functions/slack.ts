/**
 * @module
 * POST /slack/events: ssl_check → verify → url_verification → parse → ingest (or, on an uninstall, the tenant's
 * cleanup) → 200. GET /slack/install and GET /slack/oauth/callback: the OAuth install flow, when SLACK_CLIENT_ID
 * and SLACK_CLIENT_SECRET make the app installable in many workspaces.
 */
import { Hono } from "hono";
import { getCookie, setCookie, deleteCookie } from "hono/cookie";
import { slackInstallable } from "../lib/config.ts";
import { using } from "../lib/errors.ts";
import { installationKey } from "../lib/keys.ts";
import { errorMessage } from "../lib/log.ts";
import { ingest } from "../lib/pipeline.ts";
import { adapters } from "../lib/platforms/index.ts";
import { platformReplier } from "../lib/platforms/replier.ts";
import { showWorkingEarly } from "../lib/streaming/early-sign.ts";
import { adapterContext } from "../lib/platforms/context.ts";
import { exchangeCode } from "../lib/platforms/slack/oauth/access.ts";
import { authorizeUrl, CALLBACK_PATH } from "../lib/platforms/slack/oauth/authorize.ts";
import { installedPage, installFailedPage } from "../lib/platforms/slack/oauth/pages.ts";
import { isSlackSslCheck, slack as adapter, slackOAuthClient } from "../lib/platforms/slack/index.ts";
import { botIdentity, runtimeFor } from "../lib/runtime.ts";
import { publishTenantCleanup } from "../lib/tenants/cleanup-job.ts";
import { newInstallState, STATE_COOKIE, STATE_TTL_SECONDS, takeInstallState, type StateCheck } from "../lib/tenants/install-state.ts";
import { verifyAndParse, webhookRequest, type AppEnv } from "./http.ts";

export const slack = new Hono<AppEnv>();

slack.post("/events", async (c) => {
  const rt = runtimeFor(c.env);
  if (!rt.platforms.slack) return c.json({ error: "slack is not configured" }, 404);
  const request = await webhookRequest(c);
  if (isSlackSslCheck(request)) return c.body(null, 200);
  const delivery = await verifyAndParse(c, rt, adapter, request);
  if (delivery instanceof Response) return delivery;
  if (delivery.kind === "removed") {
    await using("qstash", () => publishTenantCleanup(rt, { platform: "slack", tenant: delivery.tenant }));
  }
  if (delivery.kind === "message") {
    const installable = slackInstallable(rt.settings);
    const { replyJob } = await ingest(rt, delivery.message, botIdentity(rt, delivery.botUserId), {
      ...adapter.ingestOptions(rt.settings),
      signByWebhook: true,
      // Checked inside the ingest script: no extra round trip.
      ...(installable ? { installationKey: installationKey(rt.settings.REDIS_KEY_PREFIX, { platform: "slack", tenant: delivery.installation }) } : {}),
    });
    // After the acknowledgement, not before it: the answer's job starts late under load (lib/streaming/early-sign.ts).
    if (replyJob) c.executionCtx.waitUntil(showWorkingEarly(rt, replyJob, platformReplier(rt, adapters)));
  }
  return c.body(null, 200);
});

const COOKIE_OPTIONS = { path: "/slack/oauth", httpOnly: true, secure: true, sameSite: "Lax" } as const;

slack.get("/install", async (c) => {
  const rt = runtimeFor(c.env);
  const s = rt.settings;
  if (!slackInstallable(s)) return c.json({ error: "set SLACK_CLIENT_ID and SLACK_CLIENT_SECRET to install in many workspaces" }, 404);
  const started = await using("redis", () => newInstallState(rt, c.req.header("CF-Connecting-IP") ?? "unknown"));
  if ("retryAfterSeconds" in started) return c.json({ error: "too many installs started, try again later" }, 429, { "Retry-After": String(started.retryAfterSeconds) });
  const { state, cookie } = started;
  setCookie(c, STATE_COOKIE, cookie, { ...COOKIE_OPTIONS, maxAge: STATE_TTL_SECONDS });
  return c.redirect(authorizeUrl({ apiBaseUrl: s.SLACK_API_BASE_URL, clientId: s.SLACK_CLIENT_ID!, state, redirectUri: `${s.PUBLIC_BASE_URL}${CALLBACK_PATH}` }), 302);
});

const STATE_REFUSALS: Record<Exclude<StateCheck, "ok">, string> = {
  forged: "This install link was not issued by this app.",
  expired_or_used: "This install link has expired or was already used.",
  other_browser: "This install was started in another browser.",
};

slack.get("/oauth/callback", async (c) => {
  const rt = runtimeFor(c.env);
  if (!slackInstallable(rt.settings)) return c.json({ error: "slack installs are not configured" }, 404);
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
    const installation = await exchangeCode(slackOAuthClient(adapterContext(rt)), code, `${rt.settings.PUBLIC_BASE_URL}${CALLBACK_PATH}`, rt.now());
    await using("redis", () => rt.installations.put("slack", installation));
    rt.log.info("slack_installed", { tenant: installation.tenant, rotating: installation.expiresAt !== undefined });
    return c.html(installedPage(rt.settings.BOT_NAME, installation.teamName ?? installation.tenant));
  } catch (err) {
    rt.log.error("slack_install_failed", { error: errorMessage(err) });
    return c.html(installFailedPage("Slack did not confirm the install."), 502);
  }
});
