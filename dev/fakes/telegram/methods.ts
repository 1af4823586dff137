/**
 * @module
 * The Bot API methods the fake serves, each checked as Telegram checks it: the chat must exist and have the bot
 * in it (403 once it was removed or blocked), a text 1-4,096 characters (UTF-16 code units, as JavaScript counts),
 * a forum topic that exists, a message replied to that exists unless `allow_sending_without_reply`, an edit of the
 * bot's own message that changes it, a draft only in a private chat, an action Telegram knows, one reaction per
 * message from the chat's allowed ones, an inline keyboard Telegram takes (./keyboards.ts). A text with
 * `parse_mode: "HTML"` is read as Telegram reads it (./html.ts: refused with "can't parse entities" where Telegram
 * refuses it), its limit counted after that. Flood control (./limits.ts) comes after the checks; a refused call
 * changes nothing. What people would see is recorded (`GET /__calls`, with `at`).
 */
import { ERRORS } from "./errors.ts";
import { inlineKeyboardOf, KEYBOARD_METHODS } from "./keyboards.ts";
import { flood, type Method, ownMessage, seconds, textOf, threadOf, writableChat } from "./method-context.ts";
import { int, str } from "./params.ts";
import { messageObject, userObject } from "./updates.ts";
import { DRAFT_LIFETIME_MS } from "./world.ts";

const CHAT_ACTIONS: ReadonlySet<string> = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);
/** ReactionTypeEmoji's emoji (the Bot API reference), the ones a test may meet. */
const REACTION_EMOJI: ReadonlySet<string> = new Set([
  "👍",
  "👎",
  "❤",
  "🔥",
  "🎉",
  "🤔",
  "👀",
  "🙏",
  "👌",
  "😁",
  "🤣",
  "💯",
  "😢",
  "🤯",
]);

export const METHODS: Readonly<Record<string, Method>> = {
  getMe: ({ bot }) => ({
    ...userObject(bot),
    can_join_groups: true,
    can_read_all_group_messages: !bot.privacyMode,
    supports_inline_queries: false,
  }),

  sendMessage(ctx, args) {
    const chat = writableChat(ctx, args);
    const { text, entities } = textOf(args);
    const thread = threadOf(chat, args);
    const keyboard = inlineKeyboardOf(args);
    const reply = args.reply_parameters as { message_id?: number; allow_sending_without_reply?: boolean } | undefined;
    if (
      reply?.message_id !== undefined &&
      !ctx.world.message(chat.id, reply.message_id) &&
      !reply.allow_sending_without_reply
    )
      throw ERRORS.replyNotFound;
    flood(ctx, "sendMessage", chat);
    const sent = ctx.world.add(
      chat,
      {
        chat_id: chat.id,
        ...(thread !== undefined ? { thread } : {}),
        from: ctx.bot,
        date: seconds(),
        text,
        ...(entities.length ? { entities } : {}),
        ...(reply?.message_id !== undefined ? { reply_to: reply.message_id } : {}),
        ...(keyboard ? { reply_markup: keyboard } : {}),
      },
      "sendMessage",
    );
    chat.lastBot = ctx.bot.id;
    ctx.world.endDrafts(chat.id, Date.now());
    ctx.record({
      route: "sendMessage",
      chat_id: chat.id,
      message_id: sent.message_id,
      text,
      ...(entities.length ? { entities } : {}),
      ...(thread !== undefined ? { message_thread_id: thread } : {}),
      ...(reply ? { reply_to: reply.message_id } : {}),
    });
    return messageObject(
      sent,
      chat,
      reply?.message_id !== undefined ? ctx.world.message(chat.id, reply.message_id) : undefined,
    );
  },

  editMessageText(ctx, args) {
    const { chat, message } = ownMessage(ctx, args);
    const { text, entities } = textOf(args);
    // Without `reply_markup` the edit takes the message's inline keyboard away.
    const keyboard = inlineKeyboardOf(args);
    if (
      text === message.text &&
      JSON.stringify(entities) === JSON.stringify(message.entities ?? []) &&
      JSON.stringify(keyboard) === JSON.stringify(message.reply_markup)
    )
      throw ERRORS.notModified;
    flood(ctx, "editMessageText", chat);
    message.text = text;
    message.entities = entities;
    if (keyboard) message.reply_markup = keyboard;
    else delete message.reply_markup;
    message.edited = seconds();
    message.revisions.push({ at: Date.now(), method: "editMessageText", chars: text.length, text });
    ctx.record({ route: "editMessageText", chat_id: chat.id, message_id: message.message_id, text, entities });
    return messageObject(message, chat);
  },

  sendMessageDraft(ctx, args) {
    const chat = writableChat(ctx, args);
    if (chat.type !== "private") throw ERRORS.draftPeer;
    const draftId = int(args, "draft_id");
    if (!draftId) throw ERRORS.draftId;
    const { text, entities } = str(args, "text") ? textOf(args) : { text: "", entities: [] };
    const thread = threadOf(chat, args);
    flood(ctx, "sendMessageDraft", chat);
    const key = `${chat.id}:${draftId}`;
    const now = Date.now();
    const draft = ctx.world.drafts.get(key) ?? {
      chat_id: chat.id,
      draft_id: draftId,
      ...(thread !== undefined ? { thread } : {}),
      text,
      revisions: [],
      until: now,
    };
    Object.assign(draft, { text, entities, until: now + DRAFT_LIFETIME_MS });
    draft.revisions.push({ at: now, method: "sendMessageDraft", chars: text.length, text });
    ctx.world.drafts.set(key, draft);
    ctx.record({ route: "sendMessageDraft", chat_id: chat.id, draft_id: draftId, text });
    return true;
  },

  sendChatAction(ctx, args) {
    const chat = writableChat(ctx, args);
    const action = str(args, "action") ?? "";
    if (!CHAT_ACTIONS.has(action)) throw ERRORS.wrongAction;
    const thread = threadOf(chat, args);
    ctx.record({
      route: "sendChatAction",
      chat_id: chat.id,
      action,
      ...(thread !== undefined ? { message_thread_id: thread } : {}),
    });
    return true;
  },

  setMessageReaction(ctx, args) {
    const chat = writableChat(ctx, args);
    const message = ctx.world.message(chat.id, int(args, "message_id") ?? 0);
    if (!message) throw ERRORS.reactNotFound;
    const reaction = (Array.isArray(args.reaction) ? args.reaction : []) as { type?: string; emoji?: string }[];
    // "As non-premium users, bots can set up to one reaction per message."
    if (reaction.length > 1) throw ERRORS.reactionsTooMany;
    const emoji = reaction.map((r) => (r.type === "emoji" ? (r.emoji ?? "") : ""));
    if (emoji.some((e) => !REACTION_EMOJI.has(e) || (chat.reactions !== undefined && !chat.reactions.includes(e))))
      throw ERRORS.reactionInvalid;
    message.reactions.set(ctx.bot.id, emoji);
    ctx.record({
      route: "setMessageReaction",
      chat_id: chat.id,
      message_id: message.message_id,
      reaction: emoji.join(""),
    });
    return true;
  },

  ...KEYBOARD_METHODS,
};
