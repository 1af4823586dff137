/**
 * @module
 * A question nobody picked up, on Discord: the bot answers with a reply to it in its channel, and reads what
 * followed from Discord (the question itself, then up to 100 messages after it: `GET /channels/{id}/messages`).
 * A reply that Discord links to the asker's message counts for the decider's model as the asker's answer.
 */
import type { StoredMessage } from "../../message.ts";
import * as z from "../../zod.ts";
import type { ReplyContext } from "../adapter.ts";
import type { QuestionHistory, RescueCapability, RescuedQuestion } from "../rescue.ts";
import { readableContent } from "./gateway/message.ts";
import { DISCORD_ERROR, DiscordRefused, discordRequest } from "./rest.ts";
import { displayName, messageSchema, type DiscordMessage } from "./schema.ts";
import type { DiscordSettings } from "./settings.ts";
import type { DiscordTarget } from "./target.ts";

/** Discord's most per listing call. */
const LIMIT = 100;

async function get(ctx: ReplyContext<DiscordSettings>, path: string, what: string): Promise<unknown> {
  return discordRequest({ apiBaseUrl: ctx.config.DISCORD_API_BASE_URL, method: "GET", path, what, botToken: await ctx.token(), fetch: ctx.fetch });
}

function stored(m: DiscordMessage, question: RescuedQuestion<DiscordTarget>): StoredMessage {
  const own = m.author.id === question.bot.userId;
  const replyTo = m.referenced_message?.author.id;
  return {
    id: m.id,
    role: own ? "assistant" : "user",
    authorId: m.author.id,
    authorName: displayName(m.author, m.member),
    text: readableContent(m, { userId: question.bot.userId, name: question.bot.name }),
    ts: Date.parse(m.timestamp),
    ...(replyTo ? { replyToAuthorId: replyTo } : {}),
  };
}

export const discordRescue: RescueCapability<DiscordTarget, ReplyContext<DiscordSettings>> = {
  under(question) {
    return { key: question.key, target: { platform: "discord", kind: "channel", channelId: question.key.channel, replyToMessageId: question.id } };
  },

  async history(ctx, question, until): Promise<QuestionHistory> {
    const channel = question.key.channel;
    let asked: DiscordMessage;
    try {
      asked = messageSchema.parse(await get(ctx, `/channels/${channel}/messages/${question.id}`, "read a question"));
    } catch (err) {
      if (err instanceof DiscordRefused && err.discordCode === DISCORD_ERROR.UNKNOWN_MESSAGE) return { gone: true };
      throw err;
    }
    const listed = z.array(messageSchema).parse(await get(ctx, `/channels/${channel}/messages?after=${question.id}&limit=${LIMIT}`, "read what followed a question"));
    const later = listed
      .filter((m) => Date.parse(m.timestamp) <= until)
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
      .map((m) => stored(m, question));
    return { gone: false, question: stored(asked, question), later, threadReplies: [] };
  },
};
