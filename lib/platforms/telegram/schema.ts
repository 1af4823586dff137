/**
 * @module
 * zod schemas for the Telegram updates Parley reads (the Bot API's Update, Message, MessageReactionUpdated,
 * ChatMemberUpdated and CallbackQuery). Loose objects: Telegram adds fields with every Bot API version; only the
 * fields read are checked, and only for the updates Parley uses (an update's kind is told first), so that a field
 * Telegram shapes
 * otherwise in an update Parley ignores never turns a delivery into a refusal. Each schema is held to
 * @grammyjs/types' declaration of the same object by a type assertion: a misread field fails `npm run typecheck`.
 */
import type * as Telegram from "@grammyjs/types";
import * as z from "../../zod.ts";

/** Telegram ids have at most 52 significant bits: safe integers. Chat ids of groups are negative. */
const id = z.number().check(z.int(), z.refine(Number.isSafeInteger, "not a Telegram id"));
/** Unix seconds, "always a positive number". */
const unixTime = z.number().check(z.int(), z.positive());

const userSchema = z.looseObject({
  id,
  is_bot: z.boolean(),
  first_name: z.string(),
  last_name: z.optional(z.string()),
  username: z.optional(z.string()),
});

const chatSchema = z.looseObject({
  id,
  type: z.enum(["private", "group", "supergroup", "channel"]),
  title: z.optional(z.string()),
  username: z.optional(z.string()),
  is_forum: z.optional(z.boolean()),
});

const entitySchema = z.looseObject({
  type: z.string(),
  offset: z.number().check(z.int(), z.nonnegative()),
  length: z.number().check(z.int(), z.positive()),
  user: z.optional(userSchema),
});

/** The message a reply answers, as the update carries it (without its own `reply_to_message`). */
const repliedSchema = z.looseObject({
  message_id: z.number().check(z.int()),
  from: z.optional(userSchema),
  /** Set on the service message that opened a forum topic: every message of the topic "replies" to it. */
  forum_topic_created: z.optional(z.unknown()),
});

export const messageSchema = z.looseObject({
  message_id: z.number().check(z.int(), z.positive()),
  message_thread_id: z.optional(z.number().check(z.int())),
  is_topic_message: z.optional(z.boolean()),
  from: z.optional(userSchema),
  sender_chat: z.optional(chatSchema),
  date: unixTime,
  chat: chatSchema,
  reply_to_message: z.optional(repliedSchema),
  text: z.optional(z.string()),
  entities: z.optional(z.array(entitySchema)),
  caption: z.optional(z.string()),
  caption_entities: z.optional(z.array(entitySchema)),
  /** A photo (its sizes) or a document: each read on its own (./files.ts). */
  photo: z.optional(z.unknown()),
  document: z.optional(z.unknown()),
  is_automatic_forward: z.optional(z.boolean()),
  via_bot: z.optional(userSchema),
  migrate_to_chat_id: z.optional(id),
});

const reactionTypeSchema = z.looseObject({ type: z.string(), emoji: z.optional(z.string()) });

export const reactionUpdatedSchema = z.looseObject({
  chat: chatSchema,
  message_id: z.number().check(z.int(), z.positive()),
  user: z.optional(userSchema),
  date: unixTime,
  old_reaction: z.array(reactionTypeSchema),
  new_reaction: z.array(reactionTypeSchema),
});

/** Of a ChatMember only its status is read: left and kicked mean the bot is out of the chat. */
export const chatMemberUpdatedSchema = z.looseObject({
  chat: chatSchema,
  from: userSchema,
  date: unixTime,
  new_chat_member: z.looseObject({ status: z.string(), user: userSchema }),
});

/**
 * A press of an inline keyboard's button. Its message is the bot's message the button is on: whole, or (older than
 * Telegram keeps, `date` 0) only its chat and id; absent for a message sent inline, which Parley never sends.
 */
export const callbackQuerySchema = z.looseObject({
  id: z.string().check(z.minLength(1)),
  from: userSchema,
  message: z.optional(
    z.looseObject({
      message_id: z.number().check(z.int(), z.positive()),
      chat: chatSchema,
      date: z.number().check(z.int(), z.nonnegative()),
      message_thread_id: z.optional(z.number().check(z.int())),
      is_topic_message: z.optional(z.boolean()),
      reply_to_message: z.optional(repliedSchema),
    }),
  ),
  chat_instance: z.string(),
  data: z.optional(z.string()),
});

/** An update as far as telling its kind needs: its id and which optional field it carries. */
export const updateShapeSchema = z.looseObject({ update_id: z.number().check(z.int(), z.nonnegative()) });

export type TelegramUser = z.output<typeof userSchema>;
export type TelegramChat = z.output<typeof chatSchema>;
export type TelegramEntity = z.output<typeof entitySchema>;
export type TelegramMessage = z.output<typeof messageSchema>;
type TelegramReactionUpdated = z.output<typeof reactionUpdatedSchema>;
type TelegramChatMemberUpdated = z.output<typeof chatMemberUpdatedSchema>;
type TelegramCallbackQuery = z.output<typeof callbackQuerySchema>;

/** The fields a schema reads, without a loose object's index signature. */
type Read<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
/** One type is the other's narrowing (the Bot API's `true` of our boolean, our string of its literals). */
type Overlap<A, B> = [A] extends [B] ? true : [B] extends [A] ? true : false;
/**
 * The fields of any member of a union (a MessageEntity is one of several kinds), and a field's type in those that have
 * it.
 */
type AnyKey<T> = T extends unknown ? keyof T : never;
type FieldOf<T, K> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;
/** `never` while every field the schema reads is a field of the Bot API type, of a type that agrees with it. */
type Disagreements<Ours, Theirs> = {
  [K in keyof Read<Ours>]-?: K extends AnyKey<Theirs>
    ? NonNullable<Read<Ours>[K]> extends string | number | boolean
      ? Overlap<NonNullable<Read<Ours>[K]>, NonNullable<FieldOf<Theirs, K>>> extends true
        ? never
        : K
      : never
    : K;
}[keyof Read<Ours>];
/** Compiles only when `D` is `never`: the field names it shows are read otherwise than the Bot API declares them. */
type Agrees<D extends never> = D;
// biome-ignore lint/correctness/noUnusedVariables: a compile-time check against the SDK's types
type SchemasAgree = [
  Agrees<Disagreements<TelegramUser, Telegram.User>>,
  Agrees<Disagreements<TelegramChat, Telegram.Chat>>,
  Agrees<Disagreements<TelegramEntity, Telegram.MessageEntity>>,
  Agrees<Disagreements<TelegramMessage, Telegram.Message>>,
  Agrees<Disagreements<TelegramReactionUpdated, Telegram.MessageReactionUpdated>>,
  Agrees<Disagreements<TelegramChatMemberUpdated, Telegram.ChatMemberUpdated>>,
  Agrees<Disagreements<TelegramCallbackQuery, Telegram.CallbackQuery>>,
];
