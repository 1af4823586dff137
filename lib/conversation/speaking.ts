/**
 * @module
 * The bot's turn while it is still being written (issue #32). A streamed answer is read from its first words, and
 * people reply to it before it is complete; for the decider the bot has spoken from then on. The turn so far (the
 * stream's opening words, when they began to show, whom it answers) goes into the conversation's state as
 * `speaking` in the round trip that already saves the draft before the stream opens (SAVE_OPENING_DRAFT), and the
 * webhook's decision reads it with the state it already reads. Recording the answer (RECORD_REPLY) puts the whole
 * turn in the log at the time it began to show, and drops `speaking` in the same step: the turn is in the log once.
 */
import type { ConversationState, StoredMessage } from "../message.ts";
import { defineScript, luaFlag } from "../redis-script.ts";
import * as z from "../zod.ts";
import { storedMessageSchema } from "./stored-state.ts";

/**
 * The draft is saved before a stream opens, and the bot's turn so far goes into the state with it. Keys: the
 * trigger's `reply` record, the conversation's `state`. Arguments: the `draft` (JSON) and its `ttl` (s), the
 * `conversationId`, the `turn` so far (a stored message's JSON). Upstash bills it as 4 commands (the script, SET,
 * GET, SET) where a plain draft save is 1: once per streamed answer. A conversation that is gone or was reset is
 * not touched (its later message starts anew).
 */
export const SAVE_OPENING_DRAFT = defineScript({
  keys: { reply: "key", state: "key" },
  args: z.object({ draft: z.string(), ttl: z.number(), conversationId: z.string(), turn: z.string() }),
  result: luaFlag,
  lua: `
redis.call('SET', K.reply, A.draft, 'EX', A.ttl)
local current = redis.call('GET', K.state)
if not current then return 0 end
local s = cjson.decode(current)
if s.id ~= A.conversationId then return 0 end
s.speaking = cjson.decode(A.turn)
redis.call('SET', K.state, cjson.encode(s), 'KEEPTTL')
return 1
`,
});

const speakingStateSchema = z.object({ speaking: z.optional(storedMessageSchema) });

/** The turn being written, as the state JSON (or its parsed value) holds it; a malformed one is no turn. */
export function speakingOf(state: unknown): StoredMessage | undefined {
  if (state === undefined || state === null || state === "") return undefined;
  const parsed = speakingStateSchema.safeParse(typeof state === "string" ? JSON.parse(state) : state);
  return parsed.success ? parsed.data.speaking : undefined;
}

/**
 * The conversation as the decider is to see `msg` (the last of `state.recent`): the turn being written counts as
 * the bot's latest, in its place among the messages, unless an answer recorded later supersedes it. A message
 * written before the turn began to show did not see it.
 */
export function withTurnInProgress(
  state: ConversationState,
  speaking: StoredMessage | undefined,
  msg: StoredMessage,
): ConversationState {
  if (!speaking || msg.ts <= speaking.ts || (state.lastBotReplyAt ?? -Infinity) >= speaking.ts) return state;
  const at = state.recent.findIndex((m) => m.ts > speaking.ts);
  if (at < 0) return state;
  const recent = [...state.recent.slice(0, at), speaking, ...state.recent.slice(at)];
  return {
    ...state,
    recent,
    lastBotReplyAt: speaking.ts,
    lastBotReplyTo: speaking.replyToAuthorId ? [speaking.replyToAuthorId] : [],
  };
}
