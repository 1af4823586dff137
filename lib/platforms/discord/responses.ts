/**
 * @module
 * What the interactions endpoint answers Discord, within its 3 seconds: the response types and flag are
 * `discord-interactions`' constants, a message's fields typed as discord-api-types' callback data.
 */
import type { APIInteractionResponseCallbackData } from "discord-api-types/v10";
import { InteractionResponseFlags, InteractionResponseType } from "discord-interactions";

/** The library's enums are not discord-api-types' (a type each): the constants from one, the fields from the other. */
type InteractionAnswer = {
  type: InteractionResponseType;
  data?: Omit<APIInteractionResponseCallbackData, "flags"> & { flags?: InteractionResponseFlags };
};

/** The answer to Discord's PING. */
export const PONG = { type: InteractionResponseType.PONG } satisfies InteractionAnswer;
/** "thinking…" until the job edits the answer in. */
export const DEFERRED_ANSWER = {
  type: InteractionResponseType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
} satisfies InteractionAnswer;
/** A command or interaction the bot does not handle: only the person who used it sees the message. */
export const UNSUPPORTED_ANSWER = {
  type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
  data: { content: "I don't know that one. Try /ask.", flags: InteractionResponseFlags.EPHEMERAL },
} satisfies InteractionAnswer;
/** A press of a button that decided its question: acknowledged, its message edited by the job that follows. */
export const DEFERRED_UPDATE = {
  type: InteractionResponseType.DEFERRED_UPDATE_MESSAGE,
} satisfies InteractionAnswer;
/** A note only the person who pressed sees; it may name people, and pings nobody. */
export const privateNote = (content: string) =>
  ({
    type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
    data: { content, flags: InteractionResponseFlags.EPHEMERAL, allowed_mentions: { parse: [] } },
  }) satisfies InteractionAnswer;
