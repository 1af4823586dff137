/**
 * @module
 * A Google Chat delivery → one platform-neutral InboundMessage, the app's removal from a space, or the reason it
 * needs no work. Pure: no API call. Both framings are read alike (./event.ts). Being added to a space needs no work
 * of its own: the app's one service account answers in every space it is in, so there is no installation to keep,
 * and the message whose @mention added it arrives as a message. A click of a button on the app's card is a press of
 * its control (./click.ts); widget updates are acknowledged and ignored.
 */
import type { InboundMessage } from "../../message.ts";
import type { Parsed } from "../adapter.ts";
import { readAddressing } from "./addressing.ts";
import { pressOfClick } from "./click.ts";
import { readChatEvent } from "./event.ts";
import { googleChatFileRefs } from "./files.ts";
import { isDirectMessage, messageIdOf, messageTime, placeOf, spaceIdOf, spaceVisibility } from "./place.ts";
import type { GoogleChatTarget } from "./target.ts";

export function parseGoogleChatEvent(body: unknown, botName: string, now: number): Parsed {
  const event = readChatEvent(body);
  switch (event.kind) {
    case "invalid":
      return event;
    case "other":
      return { kind: "ignored", reason: event.what };
    case "added":
      return { kind: "ignored", reason: "added_to_space" };
    case "removed":
      return { kind: "removed", tenants: [spaceIdOf(event.space.name)] };
    case "click":
      return pressOfClick(event);
  }
  const { message, space } = event;
  const sender = message.sender ?? event.user;
  if (!sender) return { kind: "invalid", issues: "message.sender: missing" };
  const dm = isDirectMessage(space);
  const addressed = readAddressing(message, { dm, botName, ...(event.command ? { command: event.command } : {}) });
  const files = googleChatFileRefs(message.attachment);
  // A picture without words is a message too: the answer reads the picture.
  if (!addressed.text.trim() && files.length === 0) return { kind: "ignored", reason: "no_text" };
  const key = placeOf(space, message);
  // The thread's name as the key read it (a thread of this very space), so the answer joins the conversation's thread.
  const thread = key.thread ? message.thread?.name : undefined;
  const inbound: InboundMessage = {
    key,
    // Unique within the space, which is the tenant.
    id: messageIdOf(message.name),
    author: {
      id: sender.name,
      name: sender.displayName || (sender.isAnonymous ? "someone" : sender.name),
      isBot: sender.type === "BOT",
    },
    text: addressed.text,
    ts: messageTime(message.createTime, now),
    addressing: addressed.addressing,
    mentions: addressed.mentions,
    replyTarget: {
      platform: "google-chat",
      space: space.name,
      ...(thread ? { thread } : {}),
      dm,
    } satisfies GoogleChatTarget,
    visibility: spaceVisibility(space),
    ...(files.length ? { files } : {}),
  };
  return { kind: "message", message: inbound, botUserId: addressed.botUserId };
}
