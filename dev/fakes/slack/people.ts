/**
 * @module
 * Who is who in the fake's workspaces, as users.info and conversations.info tell an app: the workspace's admins
 * and owners (`is_admin`, `is_owner`), and who created each channel (`creator`). Nobody is an admin and a
 * channel's creator is a person of its own until a test or the simulator says otherwise (`POST /__roles`).
 * users.info needs `users:read`; conversations.info the `*:read` scope of the kind of conversation (./methods.ts).
 */
import { CHANNEL_SHAPE, refusal, type MethodContext, type SlackAnswer } from "./context.ts";
import { textParam } from "./request.ts";

/** Slack user ids: U… or, on Enterprise Grid, W…. */
const USER_SHAPE = /^[UW][A-Z0-9]{2,}$/;
/** Whoever created a channel nobody said anything about. */
export const SLACK_FAKE_DEFAULT_CREATOR = "U0CREATOR";

export interface RoleSpec {
  team: string;
  admins?: string[];
  owners?: string[];
  channel?: string;
  creator?: string;
}

export class SlackPeople {
  #admins = new Set<string>();
  #owners = new Set<string>();
  #creators = new Map<string, string>();

  reset(): void {
    this.#admins.clear();
    this.#owners.clear();
    this.#creators.clear();
  }

  set(spec: RoleSpec): void {
    for (const user of spec.admins ?? []) this.#admins.add(`${spec.team}|${user}`);
    for (const user of spec.owners ?? []) this.#owners.add(`${spec.team}|${user}`);
    if (spec.channel && spec.creator) this.#creators.set(`${spec.team}|${spec.channel}`, spec.creator);
  }

  isAdmin(team: string, user: string): boolean {
    return this.#admins.has(`${team}|${user}`) || this.isOwner(team, user);
  }

  isOwner(team: string, user: string): boolean {
    return this.#owners.has(`${team}|${user}`);
  }

  creator(team: string, channel: string): string {
    return this.#creators.get(`${team}|${channel}`) ?? SLACK_FAKE_DEFAULT_CREATOR;
  }
}

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
