/**
 * @module
 * What the store keeps and reads back: a message as stored, and what the store's scripts return (the conversation's
 * state, one JSON string, and its messages) validated with zod into the ConversationState the decider and the prompt
 * builder see.
 */
import * as z from "../zod.ts";
import { fileRefSchema } from "../files/file-ref.ts";
import type { InboundMessage, ConversationState, StoredMessage } from "../message.ts";

export const storedMessageSchema = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  authorId: z.string(),
  authorName: z.string(),
  text: z.string(),
  ts: z.number(),
  mentions: z.optional(z.array(z.string())),
  replyToAuthorId: z.optional(z.string()),
  replyToId: z.optional(z.string()),
  noReply: z.optional(z.boolean()),
  feedback: z.optional(z.literal("not_you")),
  files: z.optional(z.array(fileRefSchema)),
  backfilled: z.optional(z.literal(true)),
  bot: z.optional(z.literal(true)),
});

/** cjson turns an empty Lua table into `{}`; the REST client may already have parsed a JSON string. */
const luaList = z.union([
  z.array(z.unknown()),
  z.pipe(
    z.strictObject({}),
    z.transform(() => [] as unknown[]),
  ),
]);

/** The state as the scripts write it: what a conversation keeps besides its messages. */
const storedStateSchema = z.object({
  id: z.string(),
  startedAt: z.number(),
  answeredThrough: z._default(z.number(), 0),
  /** Per person answered: [through ts, arrivals seen, message id] (lib/conversation/claim-scripts.ts). */
  coverage: z.optional(z.record(z.string(), z.tuple([z.number(), z.number(), z.string()]))),
  lastBotReplyAt: z.optional(z.number()),
  lastBotReplyTo: z.optional(z.pipe(luaList, z.array(z.string()))),
  summary: z.optional(z.string()),
  parents: z.optional(z.record(z.string(), z.union([storedMessageSchema, z.literal(false)]))),
  backfilled: z.optional(z.boolean()),
});

export const scriptResultSchema = z.object({
  status: z.string(),
  state: z.optional(z.unknown()),
  recent: z.optional(luaList),
  retryAfter: z.optional(z.number()),
  draft: z.optional(z.string()),
  gone: z.optional(z.string()),
  first: z.optional(z.boolean()),
  arrivals: z.optional(z.number()),
  optedOut: z.optional(z.boolean()),
  signUp: z.optional(z.boolean()),
  visibility: z.optional(z.string()),
  /** The place's own settings as stored (lib/places/settings.ts); false when none are. */
  settings: z.optional(z.unknown()),
});

/** A value that may have come back as JSON text or, parsed by the REST client, as the value itself. */
function json(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}

/** The state of a conversation that starts with `msg`. */
export function newConversationState(msg: InboundMessage): string {
  return JSON.stringify({ id: `${msg.ts.toString(36)}-${msg.id}`, startedAt: msg.ts, answeredThrough: 0 });
}

/** How an inbound message is kept in the log. */
export function toStoredMessage(msg: InboundMessage): StoredMessage {
  const stored: StoredMessage = {
    id: msg.id,
    role: "user",
    authorId: msg.author.id,
    authorName: msg.author.name,
    text: msg.text,
    ts: msg.ts,
  };
  if (msg.mentions.length > 0) stored.mentions = msg.mentions;
  if (msg.replyToAuthorId) stored.replyToAuthorId = msg.replyToAuthorId;
  if (msg.replyToId) stored.replyToId = msg.replyToId;
  if (msg.noReply) stored.noReply = true;
  if (msg.feedback) stored.feedback = msg.feedback;
  if (msg.files?.length) stored.files = msg.files;
  return stored;
}

export function storedMessages(raw: readonly unknown[]): StoredMessage[] {
  return raw.map((m) => storedMessageSchema.parse(json(m)));
}

/** No conversation in the place. */
export const INACTIVE: ConversationState = {
  active: false,
  id: "",
  startedAt: 0,
  lastActivityAt: 0,
  lastBotReplyTo: [],
  answeredThrough: 0,
  recent: [],
};

/** `state` is the stored JSON ('' or absent when no conversation is active); `recent` oldest first. */
export function toState(state: unknown, recent: StoredMessage[]): ConversationState {
  if (state === undefined || state === null || state === "") return INACTIVE;
  const s = storedStateSchema.parse(json(state));
  return {
    active: true,
    id: s.id,
    startedAt: s.startedAt,
    // Every message and answer pushes the expiry out: the newest of them is the last activity.
    lastActivityAt: recent.reduce((latest, m) => Math.max(latest, m.ts), s.startedAt),
    lastBotReplyAt: s.lastBotReplyAt,
    lastBotReplyTo: s.lastBotReplyTo ?? [],
    answeredThrough: s.answeredThrough,
    answeredThroughBy: Object.fromEntries(
      Object.entries(s.coverage ?? {}).map(([author, [through]]) => [author, through]),
    ),
    summary: s.summary || undefined,
    ...(s.parents ? { parents: s.parents } : {}),
    ...(s.backfilled ? { backfilled: true } : {}),
    recent,
  };
}
