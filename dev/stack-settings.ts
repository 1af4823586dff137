/**
 * @module
 * The Worker's settings for the local stack, on top of .dev.vars: the stand-ins' addresses follow the chosen ports
 * (a URL the person set to something else is kept), and what an older .dev.vars lacks is filled in for the run.
 */
import { randomBytes } from "node:crypto";
import { SLACK_FAKE_OAUTH_CLIENT } from "./fakes/slack.ts";
import { TELEGRAM_FAKE_BOT } from "./fakes/telegram/bot.ts";
import { googleChatFakeSettings } from "./fakes/google-chat/settings.ts";
import { teamsFakeSettings } from "./fakes/teams/settings.ts";
import type { StackPart } from "./stack-ports.ts";
import { DEV_VECTOR_TOKEN } from "./upstash-vector/server.ts";
import { devToolSettings } from "./tools/settings.ts";

export function applyStackSettings(
  vars: Map<string, string>,
  ports: Record<StackPart, number>,
  env: NodeJS.ProcessEnv,
): void {
  const local = (p: number) => `http://127.0.0.1:${p}`;
  const isLocal = (key: string) => (vars.get(key) ?? "http://127.0.0.1").startsWith("http://127.0.0.1");
  const follow = (key: string, value: string) => {
    if (env[key] === undefined && isLocal(key)) vars.set(key, value);
  };
  follow("UPSTASH_REDIS_REST_URL", local(ports.redisRest));
  follow("QSTASH_URL", local(ports.qstash));
  follow("UPSTASH_VECTOR_REST_URL", local(ports.vector));
  // A .dev.vars from before recall: the stand-in's token, unless the index is a real one (its token is the person's).
  if (isLocal("UPSTASH_VECTOR_REST_URL") && !vars.get("UPSTASH_VECTOR_REST_TOKEN"))
    vars.set("UPSTASH_VECTOR_REST_TOKEN", DEV_VECTOR_TOKEN);
  follow("PUBLIC_BASE_URL", local(ports.worker));
  // A real key without a base URL means OpenAI itself, not the local model.
  if (env.OPENAI_API_KEY && !env.OPENAI_BASE_URL && isLocal("OPENAI_BASE_URL")) vars.delete("OPENAI_BASE_URL");
  else follow("OPENAI_BASE_URL", `${local(ports.model)}/v1`);
  follow("SLACK_API_BASE_URL", `${local(ports.slack)}/api`);
  follow("DISCORD_API_BASE_URL", `${local(ports.discord)}/api/v10`);
  // A ws:// URL, so `follow` (http) does not fit; same rule: a local address follows the port, another is kept.
  if (
    env.DISCORD_GATEWAY_URL === undefined &&
    (vars.get("DISCORD_GATEWAY_URL") ?? "ws://127.0.0.1").startsWith("ws://127.0.0.1")
  ) {
    vars.set("DISCORD_GATEWAY_URL", `ws://127.0.0.1:${ports.discordGateway}`);
  }
  follow("TWILIO_API_BASE_URL", local(ports.twilio));
  follow("TELEGRAM_API_BASE_URL", local(ports.telegram));
  for (const [key, value] of Object.entries(googleChatFakeSettings(local(ports.googleChat), vars))) follow(key, value);
  for (const [key, value] of Object.entries(teamsFakeSettings(local(ports.teams), vars))) follow(key, value);
  // The local tool server's tools, unless .dev.vars or the environment says which tools there are.
  for (const [key, value] of Object.entries(devToolSettings(local(ports.tools))))
    if (!vars.has(key) && env[key] === undefined) vars.set(key, value);
  // A .dev.vars from before Telegram: the fake's own bot, so that the page's fourth tab works.
  if (!vars.has("TELEGRAM_BOT_TOKEN") && isLocal("TELEGRAM_API_BASE_URL")) {
    vars.set("TELEGRAM_BOT_TOKEN", TELEGRAM_FAKE_BOT.token);
    vars.set("TELEGRAM_BOT_USERNAME", TELEGRAM_FAKE_BOT.username);
    vars.set("TELEGRAM_WEBHOOK_SECRET", randomBytes(24).toString("hex"));
  }

  // The simulator reads the admin view; a token made up per run unless one is set (.dev.vars or the environment).
  if (!vars.get("ADMIN_TOKEN")) vars.set("ADMIN_TOKEN", env.ADMIN_TOKEN || randomBytes(24).toString("base64url"));
  // A .dev.vars written before TOKEN_ENCRYPTION_KEY existed: a key for this run (the stack's queue starts empty).
  if (!vars.get("TOKEN_ENCRYPTION_KEY")) vars.set("TOKEN_ENCRYPTION_KEY", randomBytes(32).toString("base64"));
  // A .dev.vars written before installs: the Slack fake's OAuth app, so the page gets its two installed workspaces.
  // A `SLACK_CLIENT_ID=` line (empty) keeps single-workspace mode (SLACK_BOT_TOKEN).
  if (!vars.has("SLACK_CLIENT_ID") && isLocal("SLACK_API_BASE_URL")) {
    vars.set("SLACK_CLIENT_ID", SLACK_FAKE_OAUTH_CLIENT.clientId);
    vars.set("SLACK_CLIENT_SECRET", SLACK_FAKE_OAUTH_CLIENT.clientSecret);
  }
}
