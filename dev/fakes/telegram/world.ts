/**
 * @module
 * What the Telegram fake knows: its bots (each a token, an id, a username, its privacy mode and its webhook), the
 * chats (private chats, groups, supergroups and forums with their topics), which bots are in each and as what, and
 * every message, the bots' own with the revisions people saw (sent, edited), and the bots' drafts in private chats.
 * Message ids count per chat, as in a supergroup.
 */

type ChatType = "private" | "group" | "supergroup";
type MemberStatus = "member" | "administrator" | "left" | "kicked";

export interface FakeUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
}

export interface FakeBot extends FakeUser {
  token: string;
  username: string;
  /** Privacy mode (BotFather's /setprivacy): on, the bot gets only what is meant for it in groups. */
  privacyMode: boolean;
  webhook?: { url: string; secretToken?: string; allowedUpdates?: string[] };
  nextUpdateId: number;
}

export interface FakeChat {
  id: number;
  type: ChatType;
  title?: string;
  username?: string;
  first_name?: string;
  is_forum?: boolean;
  /** The bots in the chat, by id. */
  bots: Map<number, MemberStatus>;
  /** Forum topics: their ids (the id of the service message that opened each). */
  topics: Set<number>;
  nextMessageId: number;
  /** The last bot that sent a message here: a bare command in a group goes to it in privacy mode. */
  lastBot?: number;
  /** The reactions members may use; undefined: all of Telegram's. */
  reactions?: string[];
}

interface Revision {
  at: number;
  method: string;
  chars: number;
  /** What people saw then (a streamed answer's snapshots; an answer edited into an apology). */
  text: string;
}

export interface FakeMessage {
  message_id: number;
  chat_id: number;
  thread?: number;
  from: FakeUser;
  date: number;
  text?: string;
  entities?: object[];
  reply_to?: number;
  /** When it was last edited, Unix seconds. */
  edited?: number;
  /** A service message: what it says (`forum_topic_created`, ...). */
  service?: string;
  /** A photo or document (./files.ts): the message's text is then its caption. */
  media?: Record<string, unknown>;
  revisions: Revision[];
  /** Reactions by user id. */
  reactions: Map<number, string[]>;
  /** The inline keyboard under it (./keyboards.ts). */
  reply_markup?: { inline_keyboard: { text: string; callback_data: string }[][] };
}

/** A press of a button (./presses.ts), which its bot answers once (answerCallbackQuery). */
export interface FakeCallbackQuery {
  bot: number;
  chat_id: number;
  answered: boolean;
}

export interface FakeDraft {
  chat_id: number;
  draft_id: number;
  thread?: number;
  text: string;
  /** Its formatting, as the Bot API read it (./html.ts). */
  entities?: object[];
  revisions: Revision[];
  /** A draft not shown again lasts about 30 s ("a temporary 30-second preview"), or until the bot sends a message. */
  until: number;
}

export const DRAFT_LIFETIME_MS = 30_000;

export class World {
  readonly bots = new Map<string, FakeBot>();
  readonly chats = new Map<number, FakeChat>();
  readonly messages = new Map<string, FakeMessage>();
  readonly drafts = new Map<string, FakeDraft>();
  readonly callbackQueries = new Map<string, FakeCallbackQuery>();

  botByToken(token: string): FakeBot | undefined {
    return this.bots.get(token);
  }

  botById(id: number): FakeBot | undefined {
    return [...this.bots.values()].find((b) => b.id === id);
  }

  message(chatId: number, messageId: number): FakeMessage | undefined {
    return this.messages.get(`${chatId}:${messageId}`);
  }

  /** A new message of the chat, with its id. */
  add(
    chat: FakeChat,
    message: Omit<FakeMessage, "message_id" | "revisions" | "reactions">,
    method = "person",
  ): FakeMessage {
    const stored: FakeMessage = {
      ...message,
      message_id: chat.nextMessageId++,
      revisions: [{ at: Date.now(), method, chars: message.text?.length ?? 0, text: message.text ?? "" }],
      reactions: new Map(),
    };
    this.messages.set(`${chat.id}:${stored.message_id}`, stored);
    return stored;
  }

  chatMessages(chatId: number): FakeMessage[] {
    return [...this.messages.values()].filter((m) => m.chat_id === chatId);
  }

  /** A bot's message ends its drafts in that chat (Telegram: the draft disappears "if the bot sends a message"). */
  endDrafts(chatId: number, now: number): void {
    for (const draft of this.drafts.values()) if (draft.chat_id === chatId) draft.until = Math.min(draft.until, now);
  }

  reset(): void {
    this.chats.clear();
    this.messages.clear();
    this.drafts.clear();
    this.callbackQueries.clear();
  }
}
