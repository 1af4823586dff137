/**
 * @module
 * What the fake's Chat sends the app's endpoint, in the framing the app is built with: the Chat API's interaction
 * event (`type` MESSAGE, ADDED_TO_SPACE, REMOVED_FROM_SPACE, APP_COMMAND, CARD_CLICKED …) or a Workspace add-on's
 * event object (`commonEventObject`, `authorizationEventObject.systemIdToken`, `chat.<payload>`; a click's function
 * and parameters in `commonEventObject`), and the bearer token it signs
 * with its own keys for the app's authentication audience (docs "Verify requests from Google Chat"): for a project
 * number, a JWT from `chat@system.gserviceaccount.com` (its x509 keys); for the endpoint URL, an OpenID Connect ID
 * token from `https://accounts.google.com` (its JWKS) whose `email` is Chat's account, or the add-on's own
 * `service-<project number>@gcp-sa-gsuiteaddons.iam.gserviceaccount.com`.
 */
import type { FakeSigningKey } from "../signing-keys.ts";
import { signJwt } from "../signing-keys.ts";
import { chatTime, type FakeMessage, type FakeSpace, type FakeUser, messageResource, spaceResource } from "./world.ts";

export type Framing = "interaction" | "add-on";

export interface EventSigning {
  /** The app's authentication audience: its endpoint URL, or its project number. */
  audience: string;
  projectNumber: string;
  certKey: FakeSigningKey;
  oidcKey: FakeSigningKey;
}

const CHAT_ACCOUNT = "chat@system.gserviceaccount.com";
const TOKEN_LIFETIME_SECONDS = 3_600;

export function eventToken(signing: EventSigning, framing: Framing, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const times = { iat, exp: iat + TOKEN_LIFETIME_SECONDS };
  if (/^\d+$/.test(signing.audience))
    return signJwt(signing.certKey, { iss: CHAT_ACCOUNT, aud: signing.audience, ...times });
  const email =
    framing === "add-on"
      ? `service-${signing.projectNumber}@gcp-sa-gsuiteaddons.iam.gserviceaccount.com`
      : CHAT_ACCOUNT;
  return signJwt(signing.oidcKey, {
    iss: "https://accounts.google.com",
    aud: signing.audience,
    azp: "111111111111111111111",
    sub: "111111111111111111111",
    email,
    email_verified: true,
    ...times,
  });
}

/** The message as an event carries it: `argumentText` (the text without the app's mention), its slash command. */
function eventMessage(m: FakeMessage, space: FakeSpace, argumentText: string) {
  const command = m.annotations.find(
    (a): a is { slashCommand: { commandId: string } } => (a as { type?: string }).type === "SLASH_COMMAND",
  );
  return {
    ...messageResource(m, space),
    argumentText,
    ...(command ? { slashCommand: { commandId: command.slashCommand.commandId } } : {}),
  };
}

/** A card button's action, as the click's event carries it. */
interface ClickedAction {
  function: string;
  parameters: { key: string; value: string }[];
}

export type EventKind =
  | { kind: "message"; message: FakeMessage; argumentText: string; appCommandId?: number }
  | { kind: "added"; message?: FakeMessage; argumentText?: string }
  | { kind: "removed" }
  | { kind: "click"; message: FakeMessage; action: ClickedAction };

/** Posts a signed event to the app's endpoint as Chat does; its status, and its JSON body (null when not JSON). */
export async function postEvent(endpoint: string, authorization: string, body: unknown) {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: { Authorization: authorization, "Content-Type": "application/json", "User-Agent": "Google-Dynamite" },
    body: JSON.stringify(body),
  }).catch(() => undefined);
  const json: unknown = res ? await res.json().catch(() => null) : null;
  return { status: res?.status ?? 0, body: json };
}

/** The click's interaction event, or its add-on payload beside the function and parameters it names. */
function clickEvent(framing: Framing, event: Extract<EventKind, { kind: "click" }>, space: FakeSpace) {
  const { action } = event;
  const invoked = {
    invokedFunction: action.function,
    parameters: Object.fromEntries(action.parameters.map((p) => [p.key, p.value])),
  };
  const message = messageResource(event.message, space);
  if (framing === "interaction")
    return {
      type: "CARD_CLICKED",
      message,
      action: { actionMethodName: action.function, parameters: action.parameters },
      common: { userLocale: "en", hostApp: "CHAT", ...invoked },
    };
  return { invoked, payload: { buttonClickedPayload: { space: spaceResource(space), message, isDialogEvent: false } } };
}

export function eventBody(framing: Framing, event: EventKind, space: FakeSpace, user: FakeUser, token: string) {
  const eventTime = chatTime(Date.now());
  const said = event.kind === "message" || event.kind === "added" ? event : undefined;
  const message = said?.message ? eventMessage(said.message, space, said.argumentText ?? "") : undefined;
  const thread = said?.message ? { name: said.message.thread } : undefined;
  const command = event.kind === "message" && event.appCommandId !== undefined;
  const click = event.kind === "click" ? clickEvent(framing, event, space) : undefined;
  if (click && "type" in click) return { ...click, eventTime, space: spaceResource(space), user };
  if (framing === "interaction") {
    const type =
      event.kind === "removed" ? "REMOVED_FROM_SPACE" : event.kind === "added" ? "ADDED_TO_SPACE" : "MESSAGE";
    return {
      type: command ? "APP_COMMAND" : type,
      eventTime,
      space: spaceResource(space),
      user,
      ...(message ? { message, thread } : {}),
      ...(command ? { appCommandMetadata: { appCommandId: event.appCommandId, appCommandType: "SLASH_COMMAND" } } : {}),
      common: { userLocale: "en", hostApp: "CHAT" },
    };
  }
  const payload = click
    ? click.payload
    : event.kind === "removed"
      ? { removedFromSpacePayload: { space: spaceResource(space) } }
      : event.kind === "added"
        ? { addedToSpacePayload: { space: spaceResource(space), interactionAdd: Boolean(message) } }
        : command
          ? {
              appCommandPayload: {
                appCommandMetadata: { appCommandId: event.appCommandId, appCommandType: "SLASH_COMMAND" },
                space: spaceResource(space),
                thread,
                message,
              },
            }
          : { messagePayload: { space: spaceResource(space), message } };
  return {
    commonEventObject: { userLocale: "en", hostApp: "CHAT", platform: "WEB", ...(click ? click.invoked : {}) },
    authorizationEventObject: { systemIdToken: token },
    chat: { user, eventTime, ...payload },
  };
}
