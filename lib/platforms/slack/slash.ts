/**
 * @module
 * Slack's slash commands (`/parley`): the signed form Slack posts to /slack/commands, read into the place it was
 * used in and who used it, and whether that person may change the place's settings: a workspace admin or owner
 * (users.info), or whoever created the channel (conversations.info). Slack waits 3 seconds for the answer, so
 * both calls together get at most PERMISSION_TIMEOUT_MS; a call that fails or is late counts as "may not".
 */
import type * as Slack from "@slack/web-api";
import type { ConversationKey } from "../../message.ts";
import { withinMs } from "../../deadline.ts";
import type { Logger } from "../../log.ts";
import { describeIssues } from "../../zod-issues.ts";
import * as z from "../../zod.ts";
import { callSlack, slackErrorCode, type SlackAgrees, type SlackCallArgs, type SlackDisagreements } from "./api.ts";
import { slackId } from "./schema.ts";

/** What Slack posts for a slash command (its reference: "Slash commands"), the fields Parley reads. */
const slashFormSchema = z.object({
  command: z.string().check(z.regex(/^\/\S+$/)),
  text: z._default(z.string(), ""),
  team_id: slackId,
  enterprise_id: z.optional(z.string()),
  channel_id: slackId,
  user_id: slackId,
});

export interface SlackSlashCommand {
  /** Without its slash: `parley`. */
  name: string;
  text: string;
  /** The channel it was used in, as its conversations are keyed (a thread has its channel's settings). */
  place: ConversationKey;
  userId: string;
}

export function parseSlackSlashCommand(
  rawBody: string,
): { ok: true; command: SlackSlashCommand } | { ok: false; issues: string } {
  const form = Object.fromEntries(new URLSearchParams(rawBody));
  const parsed = slashFormSchema.safeParse(form);
  if (!parsed.success) return { ok: false, issues: describeIssues(parsed.error) };
  const f = parsed.data;
  // An empty enterprise_id is how Slack sends "none".
  const org = f.enterprise_id || undefined;
  const tenant = org ? `${org}:${f.team_id}` : f.team_id;
  return {
    ok: true,
    command: {
      name: f.command.slice(1),
      text: f.text,
      place: { platform: "slack", tenant, channel: f.channel_id },
      userId: f.user_id,
    },
  };
}

/** Slack's 3 seconds, less the settings' own round trip and the way back. */
const PERMISSION_TIMEOUT_MS = 2_000;

const usersInfoSchema = z.object({
  user: z.object({
    is_admin: z.optional(z.boolean()),
    is_owner: z.optional(z.boolean()),
    is_primary_owner: z.optional(z.boolean()),
  }),
});
const conversationsInfoSchema = z.object({ channel: z.object({ creator: z.optional(z.string()) }) });
// biome-ignore lint/correctness/noUnusedVariables: a compile-time check against the SDK's type
type UserAgrees = SlackAgrees<
  SlackDisagreements<z.output<typeof usersInfoSchema>["user"], NonNullable<Slack.UsersInfoResponse["user"]>>
>;
// biome-ignore lint/correctness/noUnusedVariables: a compile-time check against the SDK's type
type ChannelAgrees = SlackAgrees<
  SlackDisagreements<
    z.output<typeof conversationsInfoSchema>["channel"],
    NonNullable<Slack.ConversationsInfoResponse["channel"]>
  >
>;

/** A workspace admin or owner, or the channel's creator; false when Slack says otherwise or cannot say in time. */
export async function slackMayManage(
  call: SlackCallArgs,
  command: Pick<SlackSlashCommand, "userId" | "place">,
  log: Logger,
): Promise<boolean> {
  const check = async (): Promise<boolean> => {
    const who = usersInfoSchema.parse(await callSlack(call, "users.info", { user: command.userId }, "form")).user;
    if (who.is_admin || who.is_owner || who.is_primary_owner) return true;
    const channel = conversationsInfoSchema.parse(
      await callSlack(call, "conversations.info", { channel: command.place.channel }, "form"),
    ).channel;
    return channel.creator === command.userId;
  };
  return withinMs(
    check().catch((err: unknown) => {
      log.warn("slack_permission_unknown", { code: slackErrorCode(err) ?? "error" });
      return false;
    }),
    PERMISSION_TIMEOUT_MS,
    () => {
      log.warn("slack_permission_unknown", { code: "timeout" });
      return false;
    },
  );
}

/** The answer Slack shows only to whoever used the command. */
export function ephemeral(text: string): { response_type: "ephemeral"; text: string } {
  return { response_type: "ephemeral", text };
}
