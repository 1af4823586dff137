/**
 * @module
 * users.conversations and conversations.open as the fake answers them. users.conversations (`user`, `types`
 * (public_channel by default), `exclude_archived`, `limit` up to 1,000, `cursor`) lists the channels the person is a
 * member of (./roles.ts), each kind only with its `*:read` scope (public_channel `channels:read`, private_channel
 * `groups:read`, mpim `mpim:read`, im `im:read`), and a private channel only where the bot is a member too, as
 * Slack's reference says ("non-public channels are restricted to those where the calling user shares membership").
 * conversations.open (`users`, one person: `im:write`, ./methods.ts) answers the bot's DM with the person, the same
 * one every time.
 */
import { refusal, type MethodContext, type SlackAnswer } from "./context.ts";
import { textParam } from "./request.ts";

const USER_SHAPE = /^[UW][A-Z0-9]{2,}$/;
const MAX_LIMIT = 1_000;
const DEFAULT_LIMIT = 100;
/** Each `types` value: which channels it lists (by their id's first letter) and the scope it takes. */
const TYPES: Readonly<Record<string, { prefix: string; scope: string }>> = {
  public_channel: { prefix: "C", scope: "channels:read" },
  private_channel: { prefix: "G", scope: "groups:read" },
  mpim: { prefix: "G", scope: "mpim:read" },
  im: { prefix: "D", scope: "im:read" },
};

export function usersConversations({ team, params, state }: MethodContext): SlackAnswer {
  const user = textParam(params, "user") ?? "";
  if (!USER_SHAPE.test(user)) return refusal("user_not_found");
  const types = (textParam(params, "types") ?? "public_channel").split(",").map((t) => t.trim());
  if (types.some((t) => !TYPES[t])) return refusal("invalid_types");
  const granted = team.scope.split(",");
  const missing = types.map((t) => TYPES[t]!.scope).filter((scope) => !granted.includes(scope));
  if (missing.length > 0) return { ok: false, error: "missing_scope", needed: missing.join(","), provided: team.scope };
  const limit = Math.min(MAX_LIMIT, Number(textParam(params, "limit") ?? DEFAULT_LIMIT) || DEFAULT_LIMIT);
  const from = Number(Buffer.from(textParam(params, "cursor") ?? "", "base64").toString("utf8") || 0);
  const prefixes = new Set(types.map((t) => TYPES[t]!.prefix));
  const listed = state.people
    .channelsOf(team.id, user)
    .filter((id) => prefixes.has(id[0] ?? "") && (id.startsWith("C") || !state.workspaces.notMember(team.id, id)));
  const page = listed.slice(from, from + limit);
  const next = from + limit < listed.length ? Buffer.from(String(from + limit)).toString("base64") : "";
  return {
    ok: true,
    channels: page.map((id) => ({
      id,
      name: id.toLowerCase(),
      is_channel: id.startsWith("C"),
      is_group: id.startsWith("G"),
      is_im: id.startsWith("D"),
      is_private: !id.startsWith("C"),
      is_archived: false,
    })),
    response_metadata: { next_cursor: next },
  };
}

export function conversationsOpen({ params }: MethodContext): SlackAnswer {
  const users = (textParam(params, "users") ?? "").split(",").filter(Boolean);
  if (users.length === 0) return refusal("users_list_not_supplied");
  if (users.some((u) => !USER_SHAPE.test(u))) return refusal("user_not_found");
  if (users.length > 1) return refusal("not_implemented_in_fake");
  return { ok: true, channel: { id: `D${users[0]!.slice(1)}` } };
}
