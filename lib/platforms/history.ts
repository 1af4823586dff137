/**
 * @module
 * The history capability of a platform: what was said in a place before the message that called the bot, read when
 * a conversation starts (lib/jobs/backfill.ts merges it into the conversation). Slack asks `conversations.history`
 * (a channel or DM) or `conversations.replies` (a thread, the parent first); Discord lists the channel's or thread's
 * messages before the trigger; Telegram, whose Bot API reads no history, answers from what the core kept of the
 * place (IngestOptions.keepHistory, `HistoryContext.kept`). One page, one call: the job asks once per conversation.
 * A rescue (lib/rescue/job.ts) reads forward instead: the question and what was said after it.
 */
import type { Author, BotIdentity, ConversationKey, ReplyTarget } from "../message.ts";

/** A message of the place that bounds a read: its id and its time (ms). */
export interface HistoryMark {
  id: string;
  ts: number;
}

/**
 * Which messages to read: those of `place` before the trigger, written since `since` (ms), the last `limit`; or,
 * `after` a message, that message (when it is still there) and up to `limit` written after it.
 */
export type HistoryQuery = PlaceRead & HistoryWindow;

/** The place, who reads it, and how much. */
export interface PlaceRead {
  place: ConversationKey;
  /**
   * The trigger is a message of the place (not a slash command): a page that lists nothing up to it and itself
   * tells that the place's history cannot be read (a Discord channel without Read Message History lists none).
   */
  triggerListed: boolean;
  limit: number;
  bot: BotIdentity;
}

/**
 * `before`: what was said before the message that called the bot (backfill, catch-up, read_channel). `after`: what
 * followed a question nobody picked up (lib/rescue/job.ts), the question first; a page without it says it was deleted.
 */
export type HistoryWindow = { before: HistoryMark; since: number } | { after: HistoryMark };

/** One message of the place, as the platform shows it now (an edited message in its current text). */
export interface PlaceMessage {
  id: string;
  author: Author;
  text: string;
  /** Milliseconds since the epoch. */
  ts: number;
  replyToId?: string;
}

/**
 * The place's messages, oldest first, without system messages (joins, topic changes); or the scope or permission
 * the platform refused the read for (`channels:history`, `not_in_channel`, `READ_MESSAGE_HISTORY`): the answer
 * goes on without them.
 */
export type HistoryPage = { messages: PlaceMessage[] } | { refused: string };

/**
 * What a history read gets: a job's context (`Ctx`, the adapter's ReplyContext) and the messages the core kept of
 * the query's place and window, where it keeps them (IngestOptions.keepHistory; none elsewhere).
 */
export type HistoryContext<Ctx> = Ctx & { kept(query: HistoryQuery): Promise<PlaceMessage[]> };

/** The optional capability an adapter adds (lib/platforms/adapter.ts PlatformAdapter extends it). */
export interface HistoryCapability<Ctx> {
  /**
   * Reads the place's messages; throws RetryLater (the tenant's call budget spent, too), GiveUp or Error like every
   * call.
   */
  readHistory?(ctx: HistoryContext<Ctx>, query: HistoryQuery): Promise<HistoryPage>;
  /**
   * The permission the trigger's author (`asker`) lacks to read the place's history, or null when they may: asked
   * before every read made for them (backfill, read_channel, a catch-up) where the platform reads with the bot's
   * permissions and the message did not carry the person's (InboundMessage.historyHidden). Absent: nothing to ask.
   */
  askerLacks?(ctx: Ctx, read: { place: ConversationKey; asker: string; target: ReplyTarget }): Promise<string | null>;
  /** A link that opens one of the place's messages (a catch-up's sources, lib/catch-up/step.ts); absent: none. */
  messageLink?(place: ConversationKey, messageId: string): string | undefined;
}
