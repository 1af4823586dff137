/**
 * @module
 * Google Chat's `/parley`: a slash command configured in the Chat API configuration with id 3 (name `/parley`,
 * docs/platforms/google-chat.md), read from the event (the message's `slashCommand` or SLASH_COMMAND annotation, or
 * an APP_COMMAND's `appCommandMetadata`) into the place it was used in (a space: a thread has its space's settings)
 * and who used it. The route (functions/google-chat.ts) runs the words as every platform's `/parley` does and
 * answers in the event's response, privately to whoever used it (`privateMessageViewer`) in a space; a DM is the
 * person's alone already. Who may change a place's settings: in a named space, its owners and managers (the
 * membership's `role` ROLE_MANAGER or ROLE_ASSISTANT_MANAGER, read with `spaces.members.get` under app
 * authentication); in a DM, the person; in a group chat nobody, since Chat gives everyone there the same role.
 */
import type { ConversationKey } from "../../message.ts";
import { withinMs } from "../../deadline.ts";
import type { Logger } from "../../log.ts";
import * as z from "../../zod.ts";
import { type ChatContext, callChat, ChatRefused } from "./api.ts";
import type { ChatEvent, Framing } from "./event.ts";
import { isDirectMessage, spaceIdOf } from "./place.ts";
import { eventResponse } from "./responses.ts";
import type { ChatSpace } from "./schema.ts";

const PARLEY = { id: 3, name: "parley" } as const;
/** Chat waits 30 s for the answer; a permission that takes longer than this counts as "may not". */
const PERMISSION_TIMEOUT_MS = 5_000;
/** A space's owner (ROLE_MANAGER, "Owner" in Chat) and manager (ROLE_ASSISTANT_MANAGER, "Manager"). */
const MANAGING_ROLES = new Set(["ROLE_MANAGER", "ROLE_ASSISTANT_MANAGER"]);

export interface GoogleChatParley {
  /** The words after `/parley`. */
  words: string;
  /** The space, as its conversations are keyed (without a thread). */
  place: ConversationKey;
  space: ChatSpace;
  /** `users/…` of whoever used it. */
  user: string;
  framing: Framing;
}

/** The `/parley` the event invokes, or null (another command, a plain message, any other event). */
export function readParleyCommand(event: ChatEvent): GoogleChatParley | null {
  if (event.kind !== "message" || !event.command) return null;
  const { id, name } = event.command;
  if (id !== PARLEY.id && name !== PARLEY.name) return null;
  const user = event.message.sender?.name ?? event.user?.name;
  if (!user) return null;
  const spaceId = spaceIdOf(event.space.name);
  return {
    words: event.message.argumentText ?? "",
    place: { platform: "google-chat", tenant: spaceId, channel: spaceId },
    space: event.space,
    user,
    framing: event.framing,
  };
}

/** The answer Chat shows only to whoever used the command (in a DM, the person's own message to them). */
export function parleyAnswer(command: GoogleChatParley, text: string): Response {
  const viewer = isDirectMessage(command.space) ? {} : { privateMessageViewer: { name: command.user } };
  return eventResponse(command.framing, { text, ...viewer }, false);
}

const membershipSchema = z.object({ role: z.optional(z.string()) });

/** Whether `command`'s user may change the place's settings; false when Chat says otherwise or cannot say in time. */
export async function googleChatMayManage(ctx: ChatContext, command: GoogleChatParley, log: Logger): Promise<boolean> {
  if (isDirectMessage(command.space)) return true;
  if (command.space.spaceType !== "SPACE") return false;
  const member = command.user.slice("users/".length);
  const check = async () => {
    const path = `${command.space.name}/members/${encodeURIComponent(member)}`;
    const membership = membershipSchema.parse(await callChat(ctx, "spaces.members.get", { method: "GET", path }));
    return MANAGING_ROLES.has(membership.role ?? "");
  };
  const unknown = (code: string) => {
    log.warn("google_chat_permission_unknown", { code });
    return false;
  };
  return withinMs(
    check().catch((err: unknown) => unknown(err instanceof ChatRefused ? err.reason : "error")),
    PERMISSION_TIMEOUT_MS,
    () => unknown("timeout"),
  );
}
