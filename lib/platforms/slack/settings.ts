/**
 * @module
 * Slack's own settings. On with the signing secret and either a bot token (one workspace) or an OAuth client
 * (installable in many workspaces, each with its own token). A malformed essential one turns Slack off and is
 * named; a malformed SUGGESTED_PROMPTS turns off the prompts alone.
 */
import { optionalText, readSettings, text, url } from "../../settings-schema.ts";
import * as z from "../../zod.ts";
import type { PlatformSettings } from "../adapter.ts";
import { NO_SUGGESTED_PROMPTS, suggestedPromptsSetting } from "./suggested-prompts.ts";

const shape = {
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_BOT_TOKEN: optionalText,
  SLACK_API_BASE_URL: z._default(url, "https://slack.com/api"),
  /** Both set: installable in many workspaces (/slack/install), each with its own token; SLACK_BOT_TOKEN unused. */
  SLACK_CLIENT_ID: optionalText,
  SLACK_CLIENT_SECRET: optionalText,
  /** Slack's assistant status beside the bot's name while it works ("Parley is thinking…"). */
  STATUS_TEXT: z._default(text, "is thinking…"),
  /** The reaction put on a Slack channel message while the bot works on it (emoji name); empty for none. */
  STATUS_REACTION: z._default(z.string().check(z.trim()), "eyes"),
  /** The prompts the agent DM opens with, per workspace (./suggested-prompts.ts). */
  SUGGESTED_PROMPTS: suggestedPromptsSetting,
};

export type SlackSettings = { [K in keyof typeof shape]: z.output<(typeof shape)[K]> };

/** Installable in many workspaces through OAuth: each workspace's token comes from its installation. */
export function slackInstallable(s: Pick<SlackSettings, "SLACK_CLIENT_ID" | "SLACK_CLIENT_SECRET">): boolean {
  return Boolean(s.SLACK_CLIENT_ID && s.SLACK_CLIENT_SECRET);
}

export const slackSettings: PlatformSettings<SlackSettings> = {
  read: (env) =>
    readSettings(shape, env, {
      essential: [
        "SLACK_SIGNING_SECRET",
        "SLACK_BOT_TOKEN",
        "SLACK_API_BASE_URL",
        "SLACK_CLIENT_ID",
        "SLACK_CLIENT_SECRET",
      ],
      off: { SUGGESTED_PROMPTS: NO_SUGGESTED_PROMPTS },
    }),
  enabled: (s) => Boolean(s.SLACK_SIGNING_SECRET && (s.SLACK_BOT_TOKEN || slackInstallable(s))),
  tokenSetting: "SLACK_BOT_TOKEN",
  token: (s) => s.SLACK_BOT_TOKEN,
};
