/**
 * @module
 * The Hono app: routes, body-size limit, error handler. The Worker's default export.
 */
import { Hono } from "hono";
import { ConfigError } from "../lib/config.ts";
import { DependencyUnavailable } from "../lib/errors.ts";
import { errorMessage, logger } from "../lib/log.ts";
import { sweepRecallRetention } from "../lib/memory/recall/sweep-cron.ts";
import { runtimeFor } from "../lib/runtime.ts";
import { admin } from "./admin.ts";
import { discord } from "./discord.ts";
import { googleChat } from "./google-chat.ts";
import { wakeDiscordGateway } from "./discord-gateway.ts";
import { health } from "./health.ts";
import { jobs } from "./jobs.ts";
import { slack } from "./slack.ts";
import { teams } from "./teams.ts";
import { telegram } from "./telegram.ts";
import { tenantCleanup } from "./tenant-cleanup.ts";
import { twilio } from "./twilio.ts";
import type { AppEnv } from "./app-env.ts";
import { limitBody } from "./middleware/body-limit.ts";

/**
 * Slack, Discord, Twilio and Telegram payloads are far below this; QStash failure callbacks carry a base64 copy of a
 * job.
 */
const MAX_BODY_BYTES = 256 * 1024;

const app = new Hono<AppEnv>();

app.use("*", limitBody(MAX_BODY_BYTES));
app.get("/health", health);
app.route("/slack", slack);
app.route("/discord", discord);
app.route("/twilio", twilio);
app.route("/telegram", telegram);
app.route("/google-chat", googleChat);
app.route("/teams", teams);
app.route("/jobs/cleanup", tenantCleanup);
app.route("/jobs", jobs);
app.route("/admin", admin);

app.notFound((c) => c.json({ error: "not found" }, 404));
app.onError((err, c) => {
  if (err instanceof ConfigError) {
    logger.error("config_invalid", { settings: err.settings });
    return c.json({ error: "the bot is misconfigured", settings: err.settings }, 500);
  }
  if (err instanceof DependencyUnavailable) {
    logger.error("dependency_unavailable", {
      route: c.req.path,
      dependency: err.dependency,
      error: errorMessage(err.cause),
    });
    return c.json({ error: `${err.dependency} is unavailable, try again` }, 503, { "Retry-After": "1" });
  }
  logger.error("unhandled_error", { route: c.req.path, error: errorMessage(err) });
  return c.json({ error: "internal error" }, 500);
});

export { DiscordGateway } from "./discord-gateway.ts";

export default {
  fetch: app.fetch,
  /**
   * The cron trigger: brings the Discord Gateway connection back after an eviction (a no-op without a bot token),
   * and deletes recall passages past RECALL_RETENTION_DAYS (a no-op with recall off).
   */
  scheduled: (_controller, env, ctx) => {
    ctx.waitUntil(wakeDiscordGateway(env));
    ctx.waitUntil((async () => sweepRecallRetention(runtimeFor(env)))());
  },
} satisfies ExportedHandler<Record<string, unknown>>;
