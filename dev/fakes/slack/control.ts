/**
 * @module
 * The Slack fake's own control routes (besides `/__calls`, `/__fail`, `/__faults`, `/__reset` of ../control.ts):
 * - `GET|POST /__config`: the settings (./settings.ts), any subset merged;
 * - `POST /__install {team_id, team_name?, enterprise_id?, enterprise_name?, is_enterprise_install?, user_id?,
 *   scope?, redirect_uri?}` → `{code, team_id}`: the person approved the install; exchange the code with
 *   oauth.v2.access. `POST /__uninstall {team_id}` revokes the team's tokens; `GET /__teams` lists the teams;
 * - `POST /__messages {channel, user, text, team?, ts?, thread_ts?, bot_id?, metadata?, subtype?, user_profile?}` →
 * `{ts}`: a person's (or
 *   with `bot_id`, another app's; with `subtype`, the channel's own, e.g. `channel_join`) message exists in
 *   Slack (to react to, reply to, or fetch as a thread's parent); `GET /__messages?team=&channel=&ts=&thread_ts=`:
 *   every message with its streaming state, reactions, metadata and the time of each text change;
 *   `POST /__messages/delete {channel, ts, team?}`: the person deleted a message (one without replies);
 * - `POST /__reactions {channel, ts, user, name, team?}`: a person reacted to a message (as `reaction_added` says; the
 *   event itself goes to the Worker from whoever sends it), so that listings show it;
 * - `POST /__roles {team?, admins?, owners?, channel?, creator?}`: who is a workspace admin or owner, who created a
 *   channel (users.info, conversations.info: ./people.ts);
 * - `POST /__members {channel, join?, leave?, team?}`: people joined or left a channel (users.conversations);
 * - `POST /__stop_stream {channel, ts, team?}`: the person pressed Stop on a streaming answer;
 * - `POST /__membership {channel, member, team?}`: the bot was removed from (or added back to) a channel; it is a
 *   member of every other channel (its posts there then get `not_in_channel`, or `channel_not_found` if private);
 * - `GET /__assistant?team=&channel=&thread_ts=`: assistant threads' status, loading messages, prompts, title and
 *   status history; `GET /__api?method=&team=&channel=`: every API call answered; `GET /__stats`: counts,
 *   rate-limit refusals per method, OAuth exchanges and refreshes; `GET /__ephemerals?channel=&user=`: what
 *   chat.postEphemeral showed one person.
 */
import { z } from "zod";
import { configRoutes, ControlError, controlBody, filterByQuery, type ControlRoute } from "../control.ts";
import type { RateLimiter } from "../rate-limit.ts";
import type { SlackApiLog } from "./api-log.ts";
import type { SlackState } from "./context.ts";
import { CHANNEL_SHAPE } from "./context.ts";
import type { OAuthServer } from "./oauth.ts";
import { slackSettingsPatchSchema, type SlackSettings } from "./settings.ts";
import { SLACK_FAKE_DEFAULT_TEAM } from "./workspaces.ts";

const installSchema = z
  .strictObject({
    team_id: z
      .string()
      .regex(/^[TE][A-Z0-9]+$/)
      .optional(),
    team_name: z.string().min(1).optional(),
    enterprise_id: z
      .string()
      .regex(/^E[A-Z0-9]+$/)
      .optional(),
    enterprise_name: z.string().min(1).optional(),
    is_enterprise_install: z.boolean().default(false),
    user_id: z.string().min(1).optional(),
    scope: z.string().min(1).optional(),
    redirect_uri: z.string().url().optional(),
  })
  .refine((i) => i.team_id || (i.is_enterprise_install && i.enterprise_id), {
    message: "give team_id, or enterprise_id with is_enterprise_install",
  });

const personMessageSchema = z.strictObject({
  team: z.string().min(1).default(SLACK_FAKE_DEFAULT_TEAM.id),
  channel: z.string().regex(CHANNEL_SHAPE),
  user: z.string().min(1),
  text: z.string(),
  ts: z
    .string()
    .regex(/^\d+\.\d{6}$/)
    .optional(),
  thread_ts: z.string().min(1).optional(),
  /** Another app's bot post: its bot id, and the metadata it attached (any app can attach any metadata). */
  bot_id: z
    .string()
    .regex(/^B[A-Z0-9]+$/)
    .optional(),
  metadata: z
    .strictObject({ event_type: z.string().min(1), event_payload: z.record(z.string(), z.unknown()) })
    .optional(),
  /** A message of the channel itself (a join, a topic change) or of another kind, as Slack lists it. */
  subtype: z
    .string()
    .regex(/^[a-z_]+$/)
    .optional(),
  /** The author's names, as a message a person sent from a Slack client carries them. */
  user_profile: z.strictObject({ display_name: z.string().optional(), real_name: z.string().optional() }).optional(),
});

/** The app of the bot posts that tests put there: never the fake's own. */
const OTHER_APP_ID = "A0OTHERAPP";

const streamRefSchema = z.strictObject({
  team: z.string().min(1).default(SLACK_FAKE_DEFAULT_TEAM.id),
  channel: z.string().min(1),
  ts: z.string().min(1),
});

export interface SlackControlParts {
  state: SlackState;
  oauth: OAuthServer;
  limiter: RateLimiter;
  apiLog: SlackApiLog;
  updateSettings(patch: z.output<typeof slackSettingsPatchSchema>): SlackSettings;
}

export function slackControlRoutes({
  state,
  oauth,
  limiter,
  apiLog,
  updateSettings,
}: SlackControlParts): Record<string, ControlRoute> {
  return {
    ...configRoutes(state.settings, slackSettingsPatchSchema, updateSettings),
    "POST /__install": (body) => {
      const spec = controlBody(installSchema, body);
      const teamId = spec.is_enterprise_install && spec.enterprise_id ? spec.enterprise_id : spec.team_id!;
      const code = oauth.approveInstall(
        {
          teamId,
          isEnterpriseInstall: spec.is_enterprise_install,
          ...(spec.team_name ? { teamName: spec.team_name } : {}),
          ...(spec.enterprise_id ? { enterpriseId: spec.enterprise_id } : {}),
          ...(spec.enterprise_name ? { enterpriseName: spec.enterprise_name } : {}),
          ...(spec.user_id ? { installerUserId: spec.user_id } : {}),
          ...(spec.scope ? { scope: spec.scope } : {}),
        },
        spec.redirect_uri,
      );
      return { ok: true, code, team_id: teamId };
    },
    "POST /__uninstall": (body) => {
      const { team_id: teamId } = controlBody(z.strictObject({ team_id: z.string().min(1) }), body);
      if (!state.workspaces.uninstall(teamId))
        throw new ControlError(`no team ${teamId}: install it first (POST /__install)`);
      return { ok: true };
    },
    "GET /__teams": () => state.workspaces.teams(),
    "POST /__membership": (body) => {
      const spec = controlBody(
        z.strictObject({
          team: z.string().min(1).default(SLACK_FAKE_DEFAULT_TEAM.id),
          channel: z.string().regex(CHANNEL_SHAPE),
          member: z.boolean(),
        }),
        body,
      );
      state.workspaces.setMember(spec.team, spec.channel, spec.member);
      return { ok: true };
    },
    "POST /__messages": (body) => {
      const spec = controlBody(personMessageSchema, body);
      const now = Date.now();
      const ts = spec.ts ?? state.messages.nextTs(now);
      if (state.messages.find(spec.team, spec.channel, ts))
        throw new ControlError(`a message with ts ${ts} is already in ${spec.channel}`);
      state.messages.add({
        team: spec.team,
        channel: spec.channel,
        ts,
        ...(spec.thread_ts ? { thread_ts: spec.thread_ts } : {}),
        user: spec.user,
        ...(spec.bot_id ? { bot_id: spec.bot_id, app_id: OTHER_APP_ID } : {}),
        ...(spec.metadata ? { metadata: spec.metadata } : {}),
        ...(spec.subtype ? { subtype: spec.subtype } : {}),
        ...(spec.user_profile ? { user_profile: spec.user_profile } : {}),
        text: spec.text,
        reactions: [],
        revisions: [{ at: now, method: "person", chars: spec.text.length, text: spec.text }],
      });
      return { ok: true, ts };
    },
    "GET /__messages": (_body, url) => filterByQuery(state.messages.all(), url.searchParams),
    "POST /__messages/delete": (body) => {
      const ref = controlBody(streamRefSchema, body);
      if (!state.messages.remove(ref.team, ref.channel, ref.ts))
        throw new ControlError(`no message at ${ref.channel} ${ref.ts}`);
      return { ok: true };
    },
    "POST /__reactions": (body) => {
      const spec = controlBody(
        z.strictObject({
          ...streamRefSchema.shape,
          user: z.string().min(1),
          name: z.string().regex(/^[a-z0-9_+'-]+$/),
        }),
        body,
      );
      const message = state.messages.findOrPlaceholder(spec.team, spec.channel, spec.ts);
      const reaction = message.reactions.find((r) => r.name === spec.name);
      if (reaction?.users.includes(spec.user)) return { ok: true };
      if (reaction) reaction.users.push(spec.user);
      else message.reactions.push({ name: spec.name, users: [spec.user] });
      return { ok: true };
    },
    "POST /__roles": (body) => {
      const user = z.string().regex(/^[UW][A-Z0-9]{2,}$/);
      const spec = controlBody(
        z
          .strictObject({
            team: z.string().min(1).default(SLACK_FAKE_DEFAULT_TEAM.id),
            admins: z.array(user).optional(),
            owners: z.array(user).optional(),
            channel: z.string().regex(CHANNEL_SHAPE).optional(),
            creator: user.optional(),
          })
          .refine((s) => (s.channel === undefined) === (s.creator === undefined), {
            message: "give channel and creator together",
          }),
        body,
      );
      state.people.set(spec);
      return { ok: true };
    },
    "POST /__members": (body) => {
      const users = z.array(z.string().regex(/^[UW][A-Z0-9]{2,}$/)).default([]);
      const spec = controlBody(
        z.strictObject({
          team: z.string().min(1).default(SLACK_FAKE_DEFAULT_TEAM.id),
          channel: z.string().regex(CHANNEL_SHAPE),
          join: users,
          leave: users,
        }),
        body,
      );
      state.people.setMembers(spec.team, spec.channel, spec.join, spec.leave);
      return { ok: true };
    },
    "POST /__stop_stream": (body) => {
      const ref = controlBody(streamRefSchema, body);
      const message = state.messages.find(ref.team, ref.channel, ref.ts);
      if (message?.streaming_state !== "in_progress")
        throw new ControlError(`no open stream at ${ref.channel} ${ref.ts}`);
      message.stream!.stoppedByUser = true;
      return { ok: true };
    },
    "GET /__assistant": (_body, url) => filterByQuery(state.assistant.all(Date.now()), url.searchParams),
    "GET /__api": (_body, url) => filterByQuery(apiLog.all(), url.searchParams),
    "GET /__ephemerals": (_body, url) => filterByQuery(state.ephemerals.all(), url.searchParams),
    "GET /__stats": () => {
      const refused = limiter.refusals();
      return {
        calls: apiLog.counts(),
        ratelimited: { total: refused.total, byMethod: refused.byLabel },
        oauth: oauth.counts(),
      };
    },
  };
}
