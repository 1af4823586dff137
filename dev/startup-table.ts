/**
 * @module
 * The table `npm run dev` prints once the Worker answers: what runs where, the admin view with its token, the
 * Worker settings taken from the environment (their names: a value may be a secret), and what the lines below it
 * will be.
 */
import type { StackPart } from "./stack-ports.ts";
import type { OutputMode } from "./terminal-lines.ts";

export interface StartupFacts {
  ports: Record<StackPart, number>;
  redisUrl: string;
  gatewayUrl: string;
  adminToken: string;
  /** The simulator's Slack workspaces, or why there are none. */
  slackWorkspaces: string;
  /** The Worker settings the environment gave (dev/dev-vars.ts), by name. */
  fromEnvironment: readonly string[];
  mode: OutputMode;
}

export function startupTable(facts: StartupFacts): string {
  const { ports, redisUrl, gatewayUrl, adminToken, slackWorkspaces, fromEnvironment, mode } = facts;
  const local = (p: number) => `http://127.0.0.1:${p}`;
  return [
    "",
    "Parley local stack:",
    `  Worker            ${local(ports.worker)}   (curl ${local(ports.worker)}/health)`,
    `  Redis             ${redisUrl}`,
    `  Upstash REST      ${local(ports.redisRest)}`,
    `  QStash            ${local(ports.qstash)}`,
    `  Upstash Vector    ${local(ports.vector)}   (recall: a hybrid index with local models)`,
    `  Local model       ${local(ports.model)}/v1`,
    `  Tool server       ${local(ports.tools)}   (lookup_ticket, create_ticket, a search stand-in: docs/tools.md)`,
    `  Slack API fake    ${local(ports.slack)}/api`,
    `  Discord API fake  ${local(ports.discord)}/api/v10`,
    `  Discord Gateway   ${gatewayUrl}   (control: ${local(ports.discordGateway)}/__message)`,
    `  Twilio API fake   ${local(ports.twilio)}`,
    `  Telegram fake     ${local(ports.telegram)}   (people's messages: POST ${local(ports.telegram)}/__message; the bot's webhook is this Worker)`,
    `  Google Chat fake  ${local(ports.googleChat)}   (people's messages: POST ${local(ports.googleChat)}/__message; the app's endpoint is this Worker)`,
    `  Teams fake        ${local(ports.teams)}   (people's messages: POST ${local(ports.teams)}/__message; the bot's endpoint is this Worker's /teams/messages)`,
    `  Admin view        ${local(ports.worker)}/admin/conversations/<platform|tenant|channel|thread, URL-encoded>`,
    `  Admin token       ${adminToken}   (Authorization: Bearer …; set ADMIN_TOKEN to keep one)`,
    `  Debugger          ${local(ports.inspector)}   (wrangler's inspector)`,
    `  Simulator page    ${local(ports.simulator)}   (open it in a browser)`,
    `  Slack workspaces  ${slackWorkspaces}`,
    `  From environment  ${fromEnvironment.length ? fromEnvironment.join(", ") : "no Worker setting (all from .dev.vars)"}`,
    mode === "json"
      ? "Below: the Worker's log lines, one JSON object each. Ctrl-C stops everything."
      : "Below: one line per decision and per answer (`npm run dev -- --json` for the raw log lines). Ctrl-C stops everything.",
    "",
  ].join("\n");
}
