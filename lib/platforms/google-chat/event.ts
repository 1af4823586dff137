/**
 * @module
 * Either framing of a Google Chat delivery (./schema.ts) read as one event: a message for the app (a DM, a mention
 * in a space, a slash command, or the message whose @mention added the app), the app added to or removed from a
 * space, a click of a button on one of the app's cards (./click.ts), or something Parley does not use (a click in
 * a dialog, a widget update, the app's home tab). Pure.
 *
 * The two framings differ in one place that matters: a Chat API `ADDED_TO_SPACE` event carries the message when an
 * @mention added the app, while an add-on gets that message as a `messagePayload` delivery of its own (the
 * `addedToSpacePayload` then carries none): read either way, the message is answered once.
 */
import { describeIssues } from "../../zod-issues.ts";
import {
  addOnChatSchema,
  clickCommonSchema,
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
  | ClickEvent
  | { kind: "other"; what: string }
  | { kind: "invalid"; issues: string };

/** How the app receives its events, which is how it answers them (./controls.ts). */
export type Framing = "interaction" | "add-on";

/** A click of a card button: the message holding the card, who clicked, and the button's parameters. */
export interface ClickEvent {
  kind: "click";
  message: ChatMessage;
  space: ChatSpace;
  user?: ChatUser;
  parameters: Record<string, string>;
  framing: Framing;
}

export function readChatEvent(body: unknown): ChatEvent {
  const framing = framingSchema.safeParse(body);
  if (!framing.success)
    return { kind: "invalid", issues: "(root): neither a Chat interaction event nor an add-on event" };
  if ("type" in framing.data) return readInteractionEvent(body);
  const { chat, commonEventObject } = body as { chat: unknown; commonEventObject?: unknown };
  return readAddOnEvent(chat, commonEventObject);
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
    case "CARD_CLICKED": {
      if (event.isDialogEvent) return { kind: "other", what: "dialog_click" };
      if (!space || !event.message) return { kind: "invalid", issues: "message: missing" };
      // The map (`common.parameters`) and the list (`action.parameters`) say the same; either may be left out.
      const listed = (event.action?.parameters ?? []).map((p) => [p.key, p.value ?? ""]);
      const parameters = { ...Object.fromEntries(listed), ...event.common?.parameters };
      const user = event.user ? { user: event.user } : {};
      return { kind: "click", message: event.message, space, ...user, parameters, framing: "interaction" };
    }
    default:
      return { kind: "other", what: event.type.toLowerCase() };
  }
}

function readAddOnEvent(raw: unknown, common: unknown): ChatEvent {
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
  const clicked = chat.buttonClickedPayload;
  if (clicked) {
    if (clicked.isDialogEvent) return { kind: "other", what: "dialog_click" };
    const space = clicked.space ?? clicked.message.space ?? chat.space;
    if (!space) return { kind: "invalid", issues: "chat.buttonClickedPayload.space: missing" };
    const commonEvent = clickCommonSchema.safeParse(common ?? {});
    if (!commonEvent.success)
      return { kind: "invalid", issues: describeIssues(commonEvent.error, "commonEventObject.") };
    const parameters = commonEvent.data.parameters ?? {};
    return { kind: "click", message: clicked.message, space, ...user, parameters, framing: "add-on" };
  }
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
