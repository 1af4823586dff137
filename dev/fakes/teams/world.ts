/**
 * @module
 * What the fake's Teams holds: one tenant's team (with channels), group chats and 1:1 chats with the bot in them, and
 * every message written there, by people or by the bot, each bot message with its revisions (a post, then each
 * edit). Conversation ids are shaped as Teams shapes them: a channel `19:…@thread.tacv2` (a reply chain adds
 * `;messageid=<root id>`), a group chat `19:…@thread.v2`, a 1:1 chat `a:…`; activity ids are millisecond times.
 */
import { randomBytes } from "node:crypto";
import type { FakeCard } from "./card-rules.ts";

export type ConversationType = "personal" | "groupChat" | "channel";

export interface FakeConversation {
  /** The chat's id (a channel's without a `;messageid=`). */
  id: string;
  type: ConversationType;
  tenantId: string;
  /** A channel's team (its General channel's id, as Teams names a team). */
  teamId?: string;
  /** The bot was taken out of it (`POST /__remove`): the Connector refuses its replies there. */
  removed?: true;
}

interface Revision {
  at: number;
  /** `stream`: an update of a streamed message (./streams.ts); `final`: the message that ended its stream. */
  method: "post" | "put" | "stream" | "final";
  text: string;
  textFormat?: string;
  streamType?: string;
}

/** Where a streamed message's stream stands (./streams.ts). */
export interface FakeStream {
  state: "streaming" | "final" | "stopped";
  sequence: number;
  startedAt: number;
  updatedAt: number;
  /** The last informative update: the status line the chat shows while the answer is prepared. */
  status?: string;
}

export interface FakeActivity {
  id: string;
  conversation: string;
  /** The reply chain it is in (a channel's messages; a post at the top is the root of its own). */
  root?: string;
  from: { id: string; name: string };
  text: string;
  byBot: boolean;
  replyToId?: string;
  revisions: Revision[];
  /** Its Adaptive Cards as they show (./card-rules.ts): as the bot last sent them, or as a click's answer left them. */
  cards?: FakeCard[];
  /** A message Teams streamed (1:1 chats): where its stream stands. */
  stream?: FakeStream;
}

const FAKE_TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const hex = (bytes: number) => randomBytes(bytes).toString("hex");

export class World {
  conversations = new Map<string, FakeConversation>();
  activities = new Map<string, FakeActivity>();
  #lastId = 0;

  /** A fresh activity id: a millisecond time, never the same twice. */
  nextId(): string {
    this.#lastId = Math.max(Date.now(), this.#lastId + 1);
    return String(this.#lastId);
  }

  newConversation(type: ConversationType): FakeConversation {
    const id =
      type === "personal"
        ? `a:1${hex(24)}`
        : type === "groupChat"
          ? `19:${hex(16)}@thread.v2`
          : `19:${hex(16)}@thread.tacv2`;
    const conversation: FakeConversation = {
      id,
      type,
      tenantId: FAKE_TENANT,
      ...(type === "channel" ? { teamId: `19:${hex(16)}@thread.tacv2` } : {}),
    };
    this.conversations.set(id, conversation);
    return conversation;
  }

  /** The activity `id` of conversation `chat`. */
  activity(chat: string, id: string): FakeActivity | undefined {
    const found = this.activities.get(id);
    return found?.conversation === chat ? found : undefined;
  }

  add(activity: FakeActivity): FakeActivity {
    this.activities.set(activity.id, activity);
    return activity;
  }

  reset(): void {
    this.conversations.clear();
    this.activities.clear();
  }
}
