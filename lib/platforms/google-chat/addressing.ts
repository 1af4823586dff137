/**
 * @module
 * How a Google Chat message addresses the app, from what Chat marks in it, never guessed from the words. In a DM
 * every message is for the app; in a space Chat delivers only a message that @mentions the app (a `USER_MENTION`
 * annotation of a `BOT` user) or invokes one of its commands (EventType MESSAGE in the Chat API reference). The
 * app's mention becomes BOT_NAME in the text the model reads (Chat writes the app's display name, which the
 * deployer chose in the Chat API configuration and the model would not know as its own); other people's mentions
 * stay as Chat wrote them, and their ids are the message's mentions.
 *
 * Commands are configured in the Chat API configuration by id and name: `/ask <question>` asks it (id 1), `/forget`
 * is "forget me" (id 2; docs/platforms/google-chat.md); `/parley` (id 3) never comes here, the route answers it
 * (./parley.ts). A command Parley does not know is read as written.
 */
import type { Addressing } from "../../message.ts";
import type { AppCommand } from "./event.ts";
import type { ChatMessage } from "./schema.ts";

const ASK_COMMAND = { id: 1, name: "ask" } as const;
const FORGET_COMMAND = { id: 2, name: "forget" } as const;
/** What /forget says on the person's behalf: the engine's whole-message "forget me" request. */
const FORGET_REQUEST_TEXT = "forget me";
/** The app's own user in a request (the Chat API's alias), when no mention in the message named it. */
const APP_USER = "users/app";

export interface Addressed {
  addressing: Addressing;
  text: string;
  mentions: string[];
  /** The app's user (`users/…`) as the message's mention of it names it. */
  botUserId: string;
}

export function readAddressing(
  message: ChatMessage,
  opts: { dm: boolean; command?: AppCommand; botName: string },
): Addressed {
  const text = message.text ?? "";
  const mentioned = (message.annotations ?? []).flatMap((a) =>
    a.type === "USER_MENTION" && a.userMention ? [{ ...a, user: a.userMention.user }] : [],
  );
  const bots = [...new Set(mentioned.filter((m) => m.user.type === "BOT").map((m) => m.user.name))];
  // One app mentioned: it is this one (Chat sent the message here). Several: which is this one Chat does not say.
  const botUserId = bots.length === 1 && bots[0] ? bots[0] : APP_USER;
  const mentions = [...new Set(mentioned.map((m) => m.user.name))];
  if (opts.command)
    return {
      addressing: opts.dm ? "dm" : "command",
      text: questionOf(opts.command, message.argumentText ?? text),
      mentions,
      botUserId,
    };
  const own = mentioned.filter((m) => m.user.name === botUserId);
  return {
    addressing: opts.dm ? "dm" : own.length > 0 ? "mention" : "none",
    text: own.length > 0 ? named(text, own, `@${opts.botName}`) : text,
    mentions,
    botUserId,
  };
}

/** `text` with each of the spans (the app's mentions) written as `name`, from the last so the earlier stay put. */
function named(text: string, spans: { startIndex?: number; length?: number }[], name: string): string {
  let out = text;
  const placed = spans
    .flatMap((s) =>
      s.startIndex !== undefined && s.length ? [{ start: s.startIndex, end: s.startIndex + s.length }] : [],
    )
    .sort((a, b) => b.start - a.start);
  for (const { start, end } of placed) {
    // An index that does not land on an `@` is not trusted with the text: it is left as Chat wrote it.
    if (out[start] !== "@" || end > out.length) continue;
    out = out.slice(0, start) + name + out.slice(end);
  }
  return out;
}

/** `/ask <question>` asks it; `/forget` is "forget me"; another command is read as written. */
function questionOf(command: AppCommand, argument: string): string {
  const rest = argument.trim();
  const name =
    command.name ?? (command.id === ASK_COMMAND.id ? "ask" : command.id === FORGET_COMMAND.id ? "forget" : "");
  if (name === ASK_COMMAND.name) return rest || `/${ASK_COMMAND.name}`;
  if (name === FORGET_COMMAND.name) return FORGET_REQUEST_TEXT;
  const written = name ? `/${name}` : `/command ${command.id ?? ""}`.trim();
  return rest ? `${written} ${rest}` : written;
}
