/**
 * @module
 * What the interactions endpoint answers Discord, within its 3 seconds.
 */

/** Discord's interaction response types. */
const RESPONSE_TYPE = { PONG: 1, CHANNEL_MESSAGE_WITH_SOURCE: 4, DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: 5 } as const;
/** Only the person who used the command sees the message. */
const EPHEMERAL_FLAG = 64;

/** The answer to Discord's PING. */
export const PONG = { type: RESPONSE_TYPE.PONG };
/** "thinking…" until the job edits the answer in. */
export const DEFERRED_ANSWER = { type: RESPONSE_TYPE.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE };
/** A command or interaction the bot does not handle. */
export const UNSUPPORTED_ANSWER = {
  type: RESPONSE_TYPE.CHANNEL_MESSAGE_WITH_SOURCE,
  data: { content: "I don't know that one. Try /ask.", flags: EPHEMERAL_FLAG },
};
