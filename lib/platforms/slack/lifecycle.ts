/**
 * @module
 * The Slack events that end the app's presence somewhere, as the tenants whose data is to go: `app_uninstalled`
 * and a `tokens_revoked` that names the bot (the installation is gone: the workspace's, or for an org-wide
 * install the org's), and `team_access_revoked` (an org-wide install lost some of the org's workspaces: their
 * data goes, the installation stays for the others). Which stored installation served an uninstalled workspace
 * is for the cleanup to find (lib/jobs/tenant-cleanup.ts): an org-wide install's uninstall names one workspace.
 * And `channel_left` / `group_left` (the bot removed from a public or private channel): that place is `left`.
 */
import type { ConversationKey } from "../../message.ts";
import { describeIssues } from "../../zod-issues.ts";
import * as z from "../../zod.ts";
import {
  eventCallbackSchema,
  slackId,
  teamAccessRevokedSchema,
  tokensRevokedSchema,
  type SlackEventCallback,
} from "./schema.ts";

export const LIFECYCLE_EVENTS: ReadonlySet<string> = new Set([
  "app_uninstalled",
  "tokens_revoked",
  "team_access_revoked",
  "channel_left",
  "group_left",
]);

/** Slack's `channel_left` and `group_left`: the channel the bot was removed from (and by whom, unread). */
const leftSchema = z.looseObject({ channel: slackId });

export type SlackLifecycle =
  | { kind: "removed"; tenants: string[]; accessRevoked?: true }
  | { kind: "left"; place: ConversationKey }
  | { kind: "ignored"; reason: string }
  | { kind: "invalid"; issues: string };

/** `body` is the envelope, `event` its event, `wrapper` what held the event where the docs nest it (else the event). */
export function parseSlackLifecycle(
  body: unknown,
  event: { type: string },
  wrapper: Record<string, unknown>,
): SlackLifecycle {
  const envelope = eventCallbackSchema.safeParse(body);
  if (!envelope.success) return { kind: "invalid", issues: describeIssues(envelope.error) };
  if (event.type === "channel_left" || event.type === "group_left") {
    const left = leftSchema.safeParse(event);
    if (!left.success) return { kind: "invalid", issues: describeIssues(left.error, "event.") };
    return { kind: "left", place: { platform: "slack", tenant: tenantOf(envelope.data), channel: left.data.channel } };
  }
  if (event.type === "team_access_revoked") {
    const revoked = teamAccessRevokedSchema.safeParse(event);
    if (!revoked.success) return { kind: "invalid", issues: describeIssues(revoked.error, "event.") };
    const org = enterpriseOf(envelope.data, wrapper);
    const tenants = revoked.data.team_ids.map((team) => (org ? `${org}:${team}` : team));
    return tenants.length > 0
      ? { kind: "removed", tenants, accessRevoked: true }
      : { kind: "ignored", reason: "no_teams_revoked" };
  }
  if (event.type === "tokens_revoked") {
    // Revoked user tokens are not ours (the app keeps none); a revoked bot token ends the installation.
    const revoked = tokensRevokedSchema.safeParse(event);
    if (!revoked.success) return { kind: "invalid", issues: describeIssues(revoked.error, "event.") };
    if (!revoked.data.tokens.bot?.length) return { kind: "ignored", reason: "user_tokens_revoked" };
  }
  return { kind: "removed", tenants: [installationOf(envelope.data)] };
}

/** The tenant conversations are keyed by: the workspace, `E…:T…` inside an org. */
export function tenantOf(envelope: SlackEventCallback): string {
  return envelope.enterprise_id ? `${envelope.enterprise_id}:${envelope.team_id}` : envelope.team_id;
}

/** The installation that serves a delivery: the org for an org-wide install, else the workspace (./oauth/access.ts). */
export function installationOf(envelope: SlackEventCallback): string {
  const auth = envelope.authorizations[0];
  const enterprise = auth?.enterprise_id ?? envelope.enterprise_id;
  return auth?.is_enterprise_install && enterprise ? enterprise : tenantOf(envelope);
}

/** The org of an org-level event: on the envelope, its authorization, or (in the docs' nested shape) the wrapper. */
function enterpriseOf(envelope: SlackEventCallback, wrapper: Record<string, unknown>): string | undefined {
  const nested = slackId.safeParse(wrapper.enterprise_id).data;
  return envelope.enterprise_id ?? envelope.authorizations[0]?.enterprise_id ?? nested ?? undefined;
}
