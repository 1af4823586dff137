/**
 * @module
 * users.info and conversations.info as the fake answers them, from who is who in its workspaces (./roles.ts).
 * users.info needs `users:read`; conversations.info the `*:read` scope of the kind of conversation (./methods.ts).
 */
import { CHANNEL_SHAPE, refusal, type MethodContext, type SlackAnswer } from "./context.ts";
import { SLACK_FAKE_DEFAULT_CREATOR } from "./roles.ts";
import { textParam } from "./request.ts";

/** Slack user ids: U… or, on Enterprise Grid, W…. */
const USER_SHAPE = /^[UW][A-Z0-9]{2,}$/;

export function usersInfo({ team, params, state }: MethodContext): SlackAnswer {
  const user = textParam(params, "user");
  if (!user) return refusal("invalid_arguments");
  if (!USER_SHAPE.test(user)) return refusal("user_not_found");
  const people = state.people;
  return {
    ok: true,
    user: {
      id: user,
      team_id: team.id,
      name: user.toLowerCase(),
      deleted: false,
      is_admin: people.isAdmin(team.id, user),
      is_owner: people.isOwner(team.id, user),
      is_primary_owner: false,
      is_restricted: false,
      is_ultra_restricted: false,
      is_bot: user === team.botUserId,
      is_app_user: false,
    },
  };
}

export function conversationsInfo({ team, params, state }: MethodContext): SlackAnswer {
  const channel = textParam(params, "channel") ?? "";
  if (!CHANNEL_SHAPE.test(channel)) return refusal("channel_not_found");
  const kind = channel[0];
  return {
    ok: true,
    channel: {
      id: channel,
      name: channel.toLowerCase(),
      is_channel: kind === "C",
      is_group: kind === "G",
      is_im: kind === "D",
      is_private: kind !== "C",
      created: 1_700_000_000,
      // A DM has no creator: it is between two people.
      ...(kind === "D" ? { user: SLACK_FAKE_DEFAULT_CREATOR } : { creator: state.people.creator(team.id, channel) }),
    },
  };
}
