/**
 * @module
 * What every Bot API method of the fake checks first, as Telegram checks it (./methods.ts, ./keyboards.ts): the chat
 * named, with the bot in it (403 once it was removed or blocked); a text 1-4,096 characters after its `parse_mode`
 * is read (./html.ts); a forum topic that exists; flood control (./limits.ts) after the checks.
 */
import { ERRORS, badRequest, forbidden, type BotApiError } from "./errors.ts";
import type { FloodControl, TelegramLimits } from "./limits.ts";
import { checkEntities, type MessageEntity, parseTelegramHtml } from "./html.ts";
import { int, str, type Args } from "./params.ts";
import type { FakeBot, FakeChat, FakeMessage, World } from "./world.ts";

/** "1-4096 characters after entities parsing". */
const MAX_TEXT = 4_096;

export interface MethodContext {
  world: World;
  bot: FakeBot;
  flood: FloodControl;
  limits: TelegramLimits;
  record(call: Record<string, unknown>): void;
}

export type Method = (ctx: MethodContext, args: Args) => unknown;

export const seconds = () => Math.floor(Date.now() / 1000);

/** The chat named by `chat_id` (an id, or `@username`), with the bot in it. */
export function writableChat({ world, bot }: MethodContext, args: Args): FakeChat {
  const raw = str(args, "chat_id") ?? "";
  const chat = raw.startsWith("@")
    ? [...world.chats.values()].find((c) => c.username?.toLowerCase() === raw.slice(1).toLowerCase())
    : world.chats.get(Number(raw));
  if (!chat) throw ERRORS.chatNotFound;
  const status = chat.bots.get(bot.id);
  const kind = chat.type === "supergroup" ? "supergroup chat" : "group chat";
  if (chat.type === "private" && status === "kicked") throw forbidden("bot was blocked by the user");
  if (status === "kicked") throw forbidden(`bot was kicked from the ${kind}`);
  if (status === undefined || status === "left")
    throw chat.type === "private" ? ERRORS.chatNotFound : forbidden(`bot is not a member of the ${kind}`);
  return chat;
}

/** The text people see and its entities: `text` read as its `parse_mode` says, or with the `entities` given. */
export function textOf(args: Args): { text: string; entities: MessageEntity[] } {
  const raw = str(args, "text") ?? "";
  const mode = str(args, "parse_mode")?.toLowerCase();
  if (mode !== undefined && mode !== "html") {
    if (mode === "markdown" || mode === "markdownv2") throw badRequest("the fake reads parse_mode HTML only");
    throw badRequest(`unsupported parse_mode "${mode}"`);
  }
  if (mode === "html" && args.entities !== undefined) throw badRequest("the fake refuses entities beside a parse_mode");
  const parsed = mode === "html" ? parseTelegramHtml(raw) : { text: raw, entities: [] as MessageEntity[] };
  if (mode === undefined && args.entities !== undefined) {
    const given = checkEntities(raw, args.entities);
    if (given instanceof Error) throw given;
    parsed.entities = given;
  }
  if (parsed.text.trim() === "") throw ERRORS.textEmpty;
  if (parsed.text.length > MAX_TEXT) throw ERRORS.textTooLong;
  return parsed;
}

/** `message_thread_id`: a forum topic of this chat ("for forum supergroups … only"). */
export function threadOf(chat: FakeChat, args: Args): number | undefined {
  const thread = int(args, "message_thread_id");
  if (thread === undefined) return undefined;
  if (!chat.is_forum || !chat.topics.has(thread)) throw ERRORS.threadNotFound;
  return thread;
}

export function flood(ctx: MethodContext, method: string, chat: FakeChat): void {
  const refusal: BotApiError | undefined = ctx.flood.check(ctx.limits, ctx.bot.id, method, chat);
  if (refusal) throw refusal;
}

/** The bot's own message of `chat` that `message_id` names, to edit (chat messages only, as the fake edits). */
export function ownMessage(ctx: MethodContext, args: Args): { chat: FakeChat; message: FakeMessage } {
  if (args.inline_message_id !== undefined) throw badRequest("the fake edits chat messages only");
  const chat = writableChat(ctx, args);
  const message = ctx.world.message(chat.id, int(args, "message_id") ?? 0);
  if (!message) throw ERRORS.editNotFound;
  if (message.from.id !== ctx.bot.id) throw ERRORS.cannotEdit;
  return { chat, message };
}
