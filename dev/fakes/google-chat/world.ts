/**
 * @module
 * What the Google Chat fake holds: spaces (whether the app is a member of each), their threads and messages (each
 * with who wrote it, every change of its text, the app's cards on it, and who alone sees a private one), the app's
 * requests by `requestId`, and the files people pasted.
 * Resource names have Google's shapes: `spaces/<id>`, `spaces/<id>/threads/<id>`, `spaces/<id>/messages/<id>.<id>`.
 */
import { randomBytes } from "node:crypto";
import { FileStore } from "../files.ts";
import type { FakeCard } from "./cards.ts";

type SpaceType = "SPACE" | "GROUP_CHAT" | "DIRECT_MESSAGE";

export interface FakeUser {
  name: string;
  displayName: string;
  type: "HUMAN" | "BOT";
  domainId?: string;
}

/** The app's own user: how its messages' `sender` and its mentions name it. */
export const FAKE_APP_USER: FakeUser = {
  name: "users/100000000000000000001",
  displayName: "Local Helper",
  type: "BOT",
};

export interface FakeSpace {
  name: string;
  spaceType: SpaceType;
  displayName?: string;
  spaceThreadingState: "THREADED_MESSAGES" | "UNTHREADED_MESSAGES";
  appMember: boolean;
}

interface Revision {
  at: number;
  method: "create" | "patch";
  chars: number;
  text: string;
}

export interface FakeMessage {
  name: string;
  space: string;
  thread: string;
  threadReply: boolean;
  sender: FakeUser;
  text: string;
  createTime: string;
  /** The app's own post or edit (the only ones a patch may change). */
  byApp: boolean;
  annotations: unknown[];
  attachment: unknown[];
  /** The app's cards on it (./cards.ts). */
  cardsV2?: FakeCard[];
  /** A private message: the one person who sees it (and the app). */
  privateViewer?: string;
  revisions: Revision[];
}

const id = (bytes: number) => randomBytes(bytes).toString("base64url").replace(/[-_]/g, "A");

/** RFC 3339 to the microsecond, as Chat writes `createTime`. */
export const chatTime = (ms: number) => new Date(ms).toISOString().replace(/Z$/, "000Z");

export class World {
  spaces = new Map<string, FakeSpace>();
  messages = new Map<string, FakeMessage>();
  /** `<space>|<requestId>` → the message that request made. */
  requests = new Map<string, string>();
  files = new FileStore();

  addSpace(spec: Omit<FakeSpace, "name" | "appMember"> & { name?: string }): FakeSpace {
    const space: FakeSpace = { name: spec.name ?? `spaces/${id(8)}`, appMember: true, ...spec };
    this.spaces.set(space.name, space);
    return space;
  }

  newThread(space: FakeSpace): string {
    return `${space.name}/threads/${id(8)}`;
  }

  add(message: Omit<FakeMessage, "name" | "createTime" | "revisions">, at = Date.now()): FakeMessage {
    const stored: FakeMessage = {
      ...message,
      name: `${message.space}/messages/${id(8)}.${id(8)}`,
      createTime: chatTime(at),
      revisions: [{ at, method: "create", chars: message.text.length, text: message.text }],
    };
    this.messages.set(stored.name, stored);
    return stored;
  }

  /** The messages of a space (and thread), oldest first. */
  inSpace(space: string, thread?: string): FakeMessage[] {
    return [...this.messages.values()].filter((m) => m.space === space && (!thread || m.thread === thread));
  }

  reset(): void {
    this.spaces.clear();
    this.messages.clear();
    this.requests.clear();
    this.files.reset();
  }
}

/** A message as the Chat API returns it (Schema$Message). */
export function messageResource(m: FakeMessage, space: FakeSpace): Record<string, unknown> {
  return {
    name: m.name,
    sender: m.sender,
    createTime: m.createTime,
    ...(m.revisions.length > 1 ? { lastUpdateTime: chatTime(m.revisions.at(-1)!.at) } : {}),
    text: m.text,
    ...(m.annotations.length ? { annotations: m.annotations } : {}),
    thread: { name: m.thread },
    threadReply: m.threadReply,
    space: spaceResource(space),
    ...(m.attachment.length ? { attachment: m.attachment } : {}),
    ...(m.cardsV2?.length ? { cardsV2: m.cardsV2 } : {}),
    ...(m.privateViewer ? { privateMessageViewer: { name: m.privateViewer } } : {}),
  };
}

export function spaceResource(space: FakeSpace): Record<string, unknown> {
  return {
    name: space.name,
    spaceType: space.spaceType,
    type: space.spaceType === "DIRECT_MESSAGE" ? "DM" : "ROOM",
    ...(space.displayName ? { displayName: space.displayName } : {}),
    spaceThreadingState: space.spaceThreadingState,
    ...(space.spaceType === "DIRECT_MESSAGE" ? { singleUserBotDm: true } : {}),
  };
}
