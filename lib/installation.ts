/**
 * @module
 * One installation of the app in one tenant (a Slack workspace, or a Slack org for org-wide installs), as an OAuth
 * exchange produced it. Stored sealed (lib/tenants/installations.ts): the tokens never sit in Redis in the clear.
 */
import * as z from "./zod.ts";

export const installationSchema = z.object({
  /** The tenant conversations are keyed by (a Slack team id, `E…:T…` inside an org, or `E…` for org-wide installs). */
  tenant: z.string().check(z.minLength(1)),
  botToken: z.string().check(z.minLength(1)),
  botUserId: z.string().check(z.minLength(1)),
  appId: z.optional(z.string()),
  teamName: z.optional(z.string()),
  scopes: z.array(z.string()),
  /** The person who approved the install. */
  installerUserId: z.optional(z.string()),
  installedAt: z.number(),
  /**
   * Which install this is: new with every OAuth exchange, kept through token refreshes. An uninstall's cleanup
   * deletes the installation only while it is still this one, so a reinstall minutes later survives a cleanup's
   * retry (lib/jobs/tenant-cleanup.ts). Installations stored before it existed lack it.
   */
  installId: z.optional(z.string().check(z.minLength(1))),
  /** With token rotation: the refresh token and when the bot token expires (epoch ms). */
  refreshToken: z.optional(z.string().check(z.minLength(1))),
  expiresAt: z.optional(z.number()),
});

export type Installation = z.output<typeof installationSchema>;

/** A bot token as a refresh returned it. */
export interface RefreshedToken {
  botToken: string;
  refreshToken: string;
  expiresAt: number;
}
