/**
 * @module
 * What people do in the Telegram fake, as control routes (tests, the simulator, the benches): make a chat (the bots
 * are in it unless said otherwise), open a forum topic, write a message (delivered to every bot in the chat that
 * would get it: ./deliver.ts), react to a message, add or remove a bot (its `my_chat_member` update). Each answers
 * what Telegram did: the message's id and how each bot's webhook answered.
 */
import { z } from "zod";
import { controlBody, ControlError, type ControlRoute } from "../control.ts";
import { postUpdate, receivesMessage, type Delivery } from "./deliver.ts";
import { chatObject, messageObject, plainTextEntities, userObject } from "./updates.ts";
import type { FakeChat, FakeMessage, FakeUser, World } from "./world.ts";

const userSchema = z.strictObject({
  id: z.number().int().positive(),
  first_name: z.string().min(1),
  last_name: z.string().optional(),
  username: z.string().optional(),
  is_bot: z.boolean().default(false),
});

const chatSchema = z.strictObject({
  id: z.number().int(),
  type: z.enum(["private", "group", "supergroup"]),
  title: z.string().optional(),
  username: z.string().optional(),
  first_name: z.string().optional(),
  is_forum: z.boolean().optional(),
  /** Bot id → its status; unset: every bot of the fake is a member. */
  bots: z.record(z.string(), z.enum(["member", "administrator", "left", "kicked"])).optional(),
  reactions: z.array(z.string()).optional(),
});

export function peopleRoutes(world: World, deliveries: Delivery[]): Record<string, ControlRoute> {
  const chatOf = (id: number): FakeChat => {
    const chat = world.chats.get(id);
    if (!chat) throw new ControlError(`no chat ${id}: make it with POST /__chat first`);
    return chat;
  };
  const deliver = async (
    chat: FakeChat,
    kind: string,
    payload: unknown,
    gets: (botId: number) => boolean,
    post: boolean,
  ) => {
    const bots = [...world.bots.values()].filter((bot) => chat.bots.has(bot.id) && gets(bot.id));
    const done = await Promise.all(bots.map((bot) => postUpdate(bot, kind, payload, post)));
    deliveries.push(...done.map(({ update: _update, ...delivery }) => delivery));
    return done;
  };
  const write = async (
    chat: FakeChat,
    message: Omit<FakeMessage, "message_id" | "revisions" | "reactions">,
    post: boolean,
  ) => {
    const stored = world.add(chat, message);
    // In a forum topic, a message that replies to nothing replies to the message that opened the topic.
    const replied = stored.service ? undefined : world.message(chat.id, stored.reply_to ?? stored.thread ?? 0);
    const update = messageObject(stored, chat, replied);
    const sent = await deliver(
      chat,
      "message",
      update,
      (botId) => receivesMessage(world.botById(botId)!, chat, stored, replied),
      post,
    );
    return { message_id: stored.message_id, deliveries: sent };
  };
  return {
    "POST /__chat": (body) => {
      const c = controlBody(chatSchema, body);
      const bots = new Map(
        [...world.bots.values()].map((bot) => [bot.id, c.bots?.[String(bot.id)] ?? ("member" as const)]),
      );
      world.chats.set(c.id, { ...c, bots, topics: new Set(), nextMessageId: 1 });
      return { ok: true, chat: chatObject(world.chats.get(c.id)!) };
    },
    "POST /__topic": async (body) => {
      const t = controlBody(
        z.strictObject({
          chat_id: z.number().int(),
          name: z.string().min(1),
          from: userSchema,
          deliver: z.boolean().default(true),
        }),
        body,
      );
      const chat = chatOf(t.chat_id);
      if (!chat.is_forum) throw new ControlError(`chat ${chat.id} is not a forum`);
      const id = chat.nextMessageId;
      chat.topics.add(id);
      const { deliveries: sent } = await write(
        chat,
        { chat_id: chat.id, thread: id, from: t.from, date: now(), text: t.name, service: "forum_topic_created" },
        t.deliver,
      );
      return { message_thread_id: id, deliveries: sent };
    },
    "POST /__message": async (body) => {
      const m = controlBody(
        z.strictObject({
          chat_id: z.number().int(),
          from: userSchema,
          /** The caption when `media` is given. */
          text: z.string().min(1).optional(),
          /** A photo or document as `POST /__files` answered it. */
          media: z
            .union([
              z.object({ photo: z.array(z.object({}).passthrough()) }),
              z.object({ document: z.object({}).passthrough() }),
            ])
            .optional(),
          message_thread_id: z.number().int().optional(),
          reply_to_message_id: z.number().int().optional(),
          entities: z.array(z.object({}).passthrough()).optional(),
          /** False: the updates come back in the answer instead of going to the webhooks (tests call the Worker). */
          deliver: z.boolean().default(true),
        }),
        body,
      );
      if (m.text === undefined && !m.media) throw new ControlError("give text, media or both");
      const chat = chatOf(m.chat_id);
      if (m.message_thread_id !== undefined && !chat.topics.has(m.message_thread_id))
        throw new ControlError(`no topic ${m.message_thread_id} in chat ${chat.id}`);
      return write(
        chat,
        {
          chat_id: chat.id,
          ...(m.message_thread_id !== undefined ? { thread: m.message_thread_id } : {}),
          from: m.from,
          date: now(),
          ...(m.text !== undefined ? { text: m.text, entities: m.entities ?? plainTextEntities(m.text) } : {}),
          ...(m.media ? { media: m.media } : {}),
          ...(m.reply_to_message_id !== undefined ? { reply_to: m.reply_to_message_id } : {}),
        },
        m.deliver,
      );
    },
    "POST /__reaction": async (body) => {
      const r = controlBody(
        z.strictObject({
          chat_id: z.number().int(),
          message_id: z.number().int(),
          user: userSchema,
          emoji: z.string().nullable(),
          deliver: z.boolean().default(true),
        }),
        body,
      );
      const chat = chatOf(r.chat_id);
      const message = world.message(chat.id, r.message_id);
      if (!message) throw new ControlError(`no message ${r.message_id} in chat ${chat.id}`);
      const old = message.reactions.get(r.user.id) ?? [];
      const next = r.emoji === null ? [] : [r.emoji];
      message.reactions.set(r.user.id, next);
      const payload = {
        chat: chatObject(chat),
        message_id: message.message_id,
        user: userObject(r.user as FakeUser),
        date: now(),
        old_reaction: old.map(emojiType),
        new_reaction: next.map(emojiType),
      };
      // Reactions reach admins only, and never for reactions set by bots.
      return {
        deliveries: await deliver(
          chat,
          "message_reaction",
          payload,
          (botId) => chat.bots.get(botId) === "administrator" && !r.user.is_bot,
          r.deliver,
        ),
      };
    },
    "POST /__member": async (body) => {
      const b = controlBody(
        z.strictObject({
          chat_id: z.number().int(),
          bot_id: z.number().int(),
          status: z.enum(["member", "administrator", "left", "kicked"]),
          from: userSchema,
          deliver: z.boolean().default(true),
        }),
        body,
      );
      const chat = chatOf(b.chat_id);
      const bot = world.botById(b.bot_id);
      if (!bot) throw new ControlError(`no bot ${b.bot_id}`);
      const old = chat.bots.get(bot.id) ?? "left";
      chat.bots.set(bot.id, b.status);
      const payload = {
        chat: chatObject(chat),
        from: userObject(b.from as FakeUser),
        date: now(),
        old_chat_member: { status: old, user: userObject(bot) },
        new_chat_member: { status: b.status, user: userObject(bot) },
      };
      // About the bot itself: sent whatever the bot's status was.
      const sent = await postUpdate(bot, "my_chat_member", payload, b.deliver);
      const { update: _update, ...delivery } = sent;
      deliveries.push(delivery);
      return { deliveries: [sent] };
    },
  };
}

const now = () => Math.floor(Date.now() / 1000);
const emojiType = (emoji: string) => ({ type: "emoji", emoji });
