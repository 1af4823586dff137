/**
 * @module
 * The shape of a conversation as stored and as handed to the decider and the prompt builder.
 */

/** One message of a conversation, as stored in Redis. */
export interface StoredMessage {
  id: string;
  role: "user" | "assistant";
  authorId: string;
  authorName: string;
  text: string;
  /** Milliseconds since the epoch. */
  ts: number;
  /** Ids of the users this message mentions (platform mentions). */
  mentions?: string[];
  /** Author id of the message this one replies to, when the platform says so. */
  replyToAuthorId?: string;
  /** Id of the message this one replies to or whose thread it is in (InboundMessage.replyToId). */
  replyToId?: string;
  /** Never the message an answer is for (an SMS carrier keyword). */
  noReply?: boolean;
  /** Not words but a reaction that tells the bot its answer was not wanted (a 👎 on it): lib/decide/not-you.ts. */
  feedback?: "not_you";
}

/** What the decider and the prompt builder see of a conversation. */
export interface ConversationState {
  /** False when no conversation is active in the place (the message was not recorded). */
  active: boolean;
  /** Changes whenever a conversation starts (first trigger, or a reset word). */
  id: string;
  startedAt: number;
  lastActivityAt: number;
  /** When the bot last posted in this conversation, if it has. */
  lastBotReplyAt?: number;
  /** Author ids of the messages the bot's last answer was for. */
  lastBotReplyTo: string[];
  /** The timestamp of the newest message the bot's latest answer had seen. */
  answeredThrough: number;
  /** Per person the bot answered: the timestamp of the newest message of theirs an answer was for. */
  answeredThroughBy?: Readonly<Record<string, number>>;
  summary?: string;
  /**
   * The messages this conversation is about that are not in it (a thread's parent, a message replied to), as a job
   * found them, by what they are the parent of (lib/conversation/parent.ts); `false`: there is none to show.
   */
  parents?: Readonly<Record<string, StoredMessage | false>>;
  /** The most recent messages, oldest first, INCLUDING the message being decided (last). */
  recent: StoredMessage[];
}
