/**
 * @module
 * Either framing of a Google Chat delivery (./schema.ts) read as one event: a message for the app (a DM, a mention
 * in a space, a slash command, or the message whose @mention added the app), the app added to or removed from a
 * space, or something Parley does not use (a card click, a widget update, the app's home tab). Pure.
 *
 * The two framings differ in one place that matters: a Chat API `ADDED_TO_SPACE` event carries the message when an
 * @mention added the app, while an add-on gets that message as a `messagePayload` delivery of its own (the
 * `addedToSpacePayload` then carries none): read either way, the message is answered once.
 */
import { describeIssues } from "../../zod-issues.ts";
import {
  addOnChatSchema,
  type ChatMessage,
  type ChatSpace,
  type ChatUser,
  framingSchema,
  interactionEventSchema,
} from "./schema.ts";

/** A Chat app command as the event names it: its configured id, and its name when the message's annotation gives it. */
export interface AppCommand {
  id?: number;
  name?: string;
}

export type ChatEvent =
  | { kind: "message"; message: ChatMessage; space: ChatSpace; user?: ChatUser; command?: AppCommand }
  | { kind: "added"; space: ChatSpace }
  | { kind: "removed"; space: ChatSpace }
  | { kind: "other"; what: string }
  | { kind: "invalid"; issues: string };

export function readChatEvent(body: unknown): ChatEvent {
  const framing = framingSchema.safeParse(body);
  if (!framing.success)
    return { kind: "invalid", issues: "(root): neither a Chat interaction event nor an add-on event" };
  return "type" in framing.data ? readInteractionEvent(body) : readAddOnEvent((body as { chat: unknown }).chat);
}

function readInteractionEvent(body: unknown): ChatEvent {
  const parsed = interactionEventSchema.safeParse(body);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error) };
  const event = parsed.data;
  const space = event.space ?? event.message?.space;
  switch (event.type) {
    case "MESSAGE":
    case "ADDED_TO_SPACE":
    case "APP_COMMAND": {
      if (!space) return { kind: "invalid", issues: "space: missing" };
      if (!event.message) {
        if (event.type === "ADDED_TO_SPACE") return { kind: "added", space };
        return event.type === "MESSAGE" ? { kind: "invalid", issues: "message: missing" } : noMessage(event.type);
      }
      const command = commandOf(event.message, event.appCommandMetadata?.appCommandId);
      return {
        kind: "message",
        message: event.message,
        space,
        ...(event.user ? { user: event.user } : {}),
        ...(command ? { command } : {}),
      };
    }
    case "REMOVED_FROM_SPACE":
      return space ? { kind: "removed", space } : { kind: "invalid", issues: "space: missing" };
    default:
      return { kind: "other", what: event.type.toLowerCase() };
  }
}

function readAddOnEvent(raw: unknown): ChatEvent {
  const parsed = addOnChatSchema.safeParse(raw);
  if (!parsed.success) return { kind: "invalid", issues: describeIssues(parsed.error, "chat.") };
  const chat = parsed.data;
  const user = chat.user ? { user: chat.user } : {};
  if (chat.messagePayload) {
    const { message } = chat.messagePayload;
    const space = chat.messagePayload.space ?? message.space ?? chat.space;
    if (!space) return { kind: "invalid", issues: "chat.messagePayload.space: missing" };
    const command = commandOf(message);
    return { kind: "message", message, space, ...user, ...(command ? { command } : {}) };
  }
  if (chat.appCommandPayload) {
    const { message, appCommandMetadata } = chat.appCommandPayload;
    const space = chat.appCommandPayload.space ?? message?.space ?? chat.space;
    if (!space) return { kind: "invalid", issues: "chat.appCommandPayload.space: missing" };
    if (!message) return noMessage("APP_COMMAND");
    return {
      kind: "message",
      message,
      space,
      ...user,
      command: commandOf(message, appCommandMetadata?.appCommandId) ?? {},
    };
  }
  const membership = chat.addedToSpacePayload ?? chat.removedFromSpacePayload;
  if (membership) {
    const space = membership.space ?? chat.space;
    if (!space) return { kind: "invalid", issues: "chat.space: missing" };
    return { kind: chat.addedToSpacePayload ? "added" : "removed", space };
  }
  if (chat.buttonClickedPayload !== undefined) return { kind: "other", what: "button_clicked" };
  if (chat.widgetUpdatedPayload !== undefined) return { kind: "other", what: "widget_updated" };
  return { kind: "other", what: "unknown_payload" };
}

/** A quick command carries no message: there is nothing to read or answer in a thread. */
function noMessage(type: string): ChatEvent {
  return { kind: "other", what: `${type.toLowerCase()}_without_message` };
}

/**
 * The command a message invokes: the app command's id (APP_COMMAND) or the slash command's (`message.slashCommand`),
 * with its name from the message's SLASH_COMMAND annotation (`/ask`); undefined for a plain message.
 */
function commandOf(message: ChatMessage, appCommandId?: number): AppCommand | undefined {
  const annotation = message.annotations?.find((a) => a.type === "SLASH_COMMAND")?.slashCommand;
  const slashId = Number(message.slashCommand?.commandId ?? annotation?.commandId);
  const id = appCommandId ?? (Number.isSafeInteger(slashId) && slashId > 0 ? slashId : undefined);
  const name = annotation?.commandName?.replace(/^\//, "").toLowerCase();
  if (id === undefined && !name) return undefined;
  return { ...(id !== undefined ? { id } : {}), ...(name ? { name } : {}) };
}
