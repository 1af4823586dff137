/**
 * @module
 * The updates that end the bot's presence in a chat, as the tenants whose data is to go: `my_chat_member` with the
 * bot `left` or `kicked` (removed from a group, or blocked by the person in a private chat), and a group's
 * `migrate_to_chat_id` (it became a supergroup with another id: the old chat's keys would only wait to expire).
 */
import { describeIssues } from "../../zod-issues.ts";
import { tenantOf } from "./place.ts";
import { chatMemberUpdatedSchema } from "./schema.ts";

const GONE: ReadonlySet<string> = new Set(["left", "kicked"]);

export type MembershipParsed =
  | { kind: "removed"; tenants: string[] }
  | { kind: "ignored"; reason: string }
  | { kind: "invalid"; issues: string };

export function parseMyChatMember(update: unknown, botId: string): MembershipParsed {
  const parsed = chatMemberUpdatedSchema.safeParse(update);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error, "my_chat_member.") };
  const { chat, new_chat_member: member } = parsed.data;
  if (String(member.user.id) !== botId) return { kind: "ignored", reason: "member_not_bot" };
  if (!GONE.has(member.status)) return { kind: "ignored", reason: `member_${member.status}` };
  return { kind: "removed", tenants: [tenantOf(botId, chat.id)] };
}

export function migratedChat(botId: string, chatId: number): MembershipParsed {
  return { kind: "removed", tenants: [tenantOf(botId, chatId)] };
}
