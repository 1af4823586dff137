/**
 * @module
 * Discord Gateway protocol values (API v10, JSON encoding) and the payload envelope `{op, d, s, t}`.
 */
import type { GatewayIntentBits, GatewayOpcodes } from "discord-api-types/v10";
import * as z from "../../../zod.ts";

const GATEWAY_VERSION = 10;

/** Each typed as discord-api-types' opcode, so that the payloads we send are checked against its types. */
export const OPCODE: {
  DISPATCH: GatewayOpcodes.Dispatch;
  HEARTBEAT: GatewayOpcodes.Heartbeat;
  IDENTIFY: GatewayOpcodes.Identify;
  RESUME: GatewayOpcodes.Resume;
  RECONNECT: GatewayOpcodes.Reconnect;
  INVALID_SESSION: GatewayOpcodes.InvalidSession;
  HELLO: GatewayOpcodes.Hello;
  HEARTBEAT_ACK: GatewayOpcodes.HeartbeatAck;
} = {
  DISPATCH: 0,
  HEARTBEAT: 1,
  IDENTIFY: 2,
  RESUME: 6,
  RECONNECT: 7,
  INVALID_SESSION: 9,
  HELLO: 10,
  HEARTBEAT_ACK: 11,
};

/** The intents the bot asks for, each typed as discord-api-types' bit: a wrong value fails the typecheck. */
const INTENT: {
  /** GUILD_CREATE (the bot's managed role) and GUILD_DELETE (the bot removed: the guild's cleanup). */
  GUILDS: GatewayIntentBits.Guilds;
  GUILD_MESSAGES: GatewayIntentBits.GuildMessages;
  /** A 👎 on an answer in a server channel. */
  GUILD_MESSAGE_REACTIONS: GatewayIntentBits.GuildMessageReactions;
  DIRECT_MESSAGES: GatewayIntentBits.DirectMessages;
  /** A 👎 on an answer in a DM. */
  DIRECT_MESSAGE_REACTIONS: GatewayIntentBits.DirectMessageReactions;
  /** Privileged: enable it in the developer portal, or Discord closes the connection with 4014. */
  MESSAGE_CONTENT: GatewayIntentBits.MessageContent;
} = {
  GUILDS: 1,
  GUILD_MESSAGES: 512,
  GUILD_MESSAGE_REACTIONS: 1024,
  DIRECT_MESSAGES: 4096,
  DIRECT_MESSAGE_REACTIONS: 8192,
  MESSAGE_CONTENT: 32768,
};

export const INTENTS = Object.values(INTENT).reduce((all, bit) => all | bit, 0);

/** After these the same connect would fail again: bad token, sharding, API version or intents. Never reconnect. */
export const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([4004, 4010, 4011, 4012, 4013, 4014]);
/** The session cannot be resumed after these (invalid seq, session timed out): identify again. */
export const SESSION_ENDING_CLOSE_CODES: ReadonlySet<number> = new Set([4007, 4009]);
/**
 * The code we close with when we mean to resume: 1000 and 1001 would end the session on Discord's side.
 * 4000 is in the application range and means nothing to Discord.
 */
export const RESUMABLE_CLOSE_CODE = 4000;

/** Discord allows 1,000 IDENTIFYs per 24 hours, then resets the bot's token. We stop well before. */
export const IDENTIFY_BUDGET = 900;
export const IDENTIFY_WINDOW_MS = 24 * 60 * 60 * 1000;

export const payloadSchema = z.looseObject({
  op: z.number().check(z.int()),
  d: z.optional(z.unknown()),
  s: z.nullish(z.number().check(z.int())),
  t: z.nullish(z.string()),
});
export type GatewayPayload = z.infer<typeof payloadSchema>;

export const helloSchema = z.looseObject({ heartbeat_interval: z.number().check(z.positive()) });
export const readySchema = z.looseObject({
  session_id: z.string().check(z.minLength(1)),
  resume_gateway_url: z.string().check(z.minLength(1)),
  user: z.looseObject({ id: z.string().check(z.minLength(1)) }),
});

/** The URL to open: the base (gateway or resume URL) with the version and encoding Discord asks clients to name. */
export function gatewayUrl(base: string): string {
  const url = new URL(base);
  url.searchParams.set("v", String(GATEWAY_VERSION));
  url.searchParams.set("encoding", "json");
  return url.toString();
}
