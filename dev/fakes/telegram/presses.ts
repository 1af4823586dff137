/**
 * @module
 * A person pressing a button of a bot's inline keyboard, as a control route of the Telegram fake (tests, the
 * simulator): `POST /__press {chat_id, message_id, from, data, deliver?}` opens a callback query and sends its
 * `callback_query` update to the bot whose message it is (and to no other), with the message as the update carries
 * it (the message it replies to nested one level). Only a button the message shows can be pressed: a client can
 * send no other `data`. Answers the query's id and how the bot's webhook answered (the update itself with `deliver`
 * false, for a test that posts it).
 */
import { z } from "zod";
import { controlBody, ControlError, type ControlRoute } from "../control.ts";
import { postUpdate, type Delivery } from "./deliver.ts";
import { messageObject, userObject } from "./updates.ts";
import type { FakeUser, World } from "./world.ts";

const pressSchema = z.strictObject({
  chat_id: z.number().int(),
  message_id: z.number().int(),
  from: z.strictObject({
    id: z.number().int().positive(),
    first_name: z.string().min(1),
    last_name: z.string().optional(),
    username: z.string().optional(),
    is_bot: z.boolean().default(false),
  }),
  data: z.string(),
  deliver: z.boolean().default(true),
});

let queries = 0;

export function pressRoutes(world: World, deliveries: Delivery[]): Record<string, ControlRoute> {
  return {
    "POST /__press": async (body) => {
      const p = controlBody(pressSchema, body);
      const chat = world.chats.get(p.chat_id);
      const message = chat && world.message(chat.id, p.message_id);
      if (!chat || !message) throw new ControlError(`no message ${p.message_id} in chat ${p.chat_id}`);
      const bot = world.botById(message.from.id);
      if (!bot) throw new ControlError(`message ${p.message_id} is no bot's: it has no buttons`);
      const buttons = message.reply_markup?.inline_keyboard.flat() ?? [];
      if (!buttons.some((b) => b.callback_data === p.data))
        throw new ControlError(`message ${p.message_id} shows no button with that data`);
      // Telegram's query ids are decimal strings of a 64-bit number.
      const id = `${BigInt(bot.id) * 1_000_000n + BigInt(++queries)}`;
      world.callbackQueries.set(id, { bot: bot.id, chat_id: chat.id, answered: false });
      const replied = message.reply_to !== undefined ? world.message(chat.id, message.reply_to) : undefined;
      const payload = {
        id,
        from: userObject(p.from as FakeUser),
        message: messageObject(message, chat, replied),
        chat_instance: String(-(BigInt(chat.id) * 7n + 3n)),
        data: p.data,
      };
      const sent = await postUpdate(bot, "callback_query", payload, p.deliver);
      const { update: _update, ...delivery } = sent;
      deliveries.push(delivery);
      return { callback_query_id: id, deliveries: [sent] };
    },
  };
}
