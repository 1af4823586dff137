/**
 * @module
 * Platform-neutral message types. Platforms parse into these; the core never sees a platform payload.
 */
import * as z from "./zod.ts";
import type { FileRef } from "./files/file-ref.ts";

/** The platforms the Worker speaks, one adapter each (lib/platforms/index.ts); every other list derives from this. */
export const PLATFORMS = ["slack", "discord", "twilio", "telegram", "google-chat", "teams"] as const;
export type Platform = (typeof PLATFORMS)[number];

/**
 * How log lines name a platform's places and people (lib/log-ids.ts): `pseudonym` where its ids are personal data
 * (phone numbers), as they are otherwise.
 */
export const LOG_IDS = ["plain", "pseudonym"] as const;
export type LogIds = (typeof LOG_IDS)[number];

/**
 * Who can read the place a message was said in: only the person and the bot (`dm`), the members of a private
 * channel or group (`private`), or anyone in the workspace or server (`public`). What the bot learns keeps it.
 */
export const VISIBILITIES = ["dm", "private", "public"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** How a message addresses the bot, as the platform itself tells it (not guessed from the text). */
export type Addressing = "mention" | "reply_to_bot" | "dm" | "command" | "none";

export interface Author {
  id: string;
  name: string;
  isBot: boolean;
}

/** One place where a conversation happens. `tenant` is always part of it: nothing crosses tenants. */
export interface ConversationKey {
  platform: Platform;
  tenant: string;
  channel: string;
  thread?: string;
}

/**
 * Where the answer to a message must go, in the platform's own terms. The core carries it from the message to the
 * job untouched; the platform's adapter defines its fields and validates them (`replyTargetSchema`).
 */
export interface ReplyTarget {
  platform: Platform;
  [field: string]: unknown;
}

/**
 * One answer posted part by part, possibly over several attempts of its job. The core keeps it durable between
 * attempts (lib/jobs/post.ts); the platform's `send` reports each part before its call and once it was accepted.
 */
export interface PartProgress {
  /** The trigger message the answer is for: each part carries it with its index (Discord nonce, Slack metadata). */
  answerId: string;
  /** Parts before this one went out in an earlier attempt: not posted again. */
  from: number;
  /**
   * An earlier attempt started the call that posts part `from` (at `since`, ms) and never heard back: ask the
   * platform whether it landed before posting it again.
   */
  unsure?: { since: number };
  /**
   * Before the call that posts part `index`; resolves once that is durable. `unconfirmed`: an earlier attempt's
   * call of this part may have landed and the platform offers no way to look (posting again is safe).
   */
  starting(index: number, unconfirmed?: boolean): Promise<void>;
  /**
   * The platform accepted part `index` as message `id` (or an earlier attempt's post of it was found). `keep`: a
   * retry could neither find it nor post it again safely: resolves once the id is durable.
   */
  posted(index: number, id: string, keep?: boolean): Promise<void>;
}

export interface InboundMessage {
  key: ConversationKey;
  /** Platform message id, unique within the tenant: the dedupe key and the QStash deduplication id. */
  id: string;
  author: Author;
  text: string;
  /** Milliseconds since the epoch, from the platform. */
  ts: number;
  addressing: Addressing;
  /** Ids of the users the message mentions through the platform's own mention syntax. */
  mentions: string[];
  /** Author id of the message this one replies to, when the platform says so. */
  replyToAuthorId?: string;
  /**
   * Id of the message this one replies to or whose thread it is in (the parent), when the platform says so and it
   * was written in the same place or in the thread's own channel: never a message from elsewhere (a forward).
   */
  replyToId?: string;
  replyTarget: ReplyTarget;
  /**
   * Who can read the place, as the delivery tells it. Absent when only a platform API call can tell (a Discord
   * server channel): the job asks the adapter (PlatformAdapter.placeVisibility), never the webhook.
   */
  visibility?: Visibility;
  /** Kept in the conversation but never answered (an SMS carrier keyword such as STOP or HELP). */
  noReply?: boolean;
  /** The person asks to stop (SMS STOP) or to start again (START) getting messages from the bot. */
  consent?: Consent;
  /**
   * Not words but a reaction on one of the bot's answers that tells it the answer was not wanted (a 👎): recorded,
   * never answered, and read by the decider as "not you" (lib/decide/not-you.ts). A platform that cannot tell
   * whose message was reacted to names it in `replyToId`: the feedback then counts only when that is one of the
   * bot's answers in the conversation.
   */
  feedback?: "not_you";
  /**
   * The author may not read the place's earlier messages (the permission they lack, as the platform names it: a
   * Discord member without Read Message History): no history is read on their behalf (lib/platforms/replier.ts).
   */
  historyHidden?: string;
  /**
   * Files pasted with the message, as references (lib/files/file-ref.ts): a reply job fetches them, never the webhook.
   */
  files?: FileRef[];
}

/** A message another one is about (a thread's parent, a message replied to), as the platform returned it. */
export interface ParentMessage {
  id: string;
  author: Author;
  text: string;
  /** Milliseconds since the epoch. */
  ts: number;
  /** Files pasted with it, as references (InboundMessage.files). */
  files?: FileRef[];
}

export type Consent = "opt_out" | "opt_in";

/** Who the bot is on the platform at hand. */
export interface BotIdentity {
  /** The bot's user id on the platform (Slack bot user id, Discord application/user id, Twilio number). */
  userId: string;
  name: string;
  aliases: string[];
}

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
  /** Files pasted with it, as references only (InboundMessage.files). */
  files?: FileRef[];
  /**
   * Read from the place when the conversation started (lib/jobs/backfill.ts): said before the bot was called, never a
   * source of facts.
   */
  backfilled?: true;
  /** Another bot's (or app's) message, as the platform said. */
  bot?: true;
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
   * found them, by what they are the parent of (lib/jobs/parent.ts); `false`: there is none to show.
   */
  parents?: Readonly<Record<string, StoredMessage | false>>;
  /** The place's earlier messages were read into it, or it was found that none can be (lib/jobs/backfill.ts). */
  backfilled?: boolean;
  /** The most recent messages, oldest first, INCLUDING the message being decided (last). */
  recent: StoredMessage[];
}

/**
 * What a stream left in its answer's draft (lib/conversation/draft.ts): enough for a later attempt to finish the
 * same message. Platforms write it as they stream (lib/platforms/adapter.ts AnswerStream).
 */
export const streamStateSchema = z.object({
  /** The message the stream writes (Slack ts, Discord message id). */
  id: z.string(),
  /** `native`: the platform's own stream (appends); `edit`: a posted message edited as the answer grows. */
  mode: z.enum(["native", "edit"]),
  /** The answer text the message shows so far (raw: before Markdown closing and escaping). */
  shown: z.string(),
  /** Still open on the platform: a later attempt must close it. */
  open: z.boolean(),
});
export type StreamState = z.output<typeof streamStateSchema>;
