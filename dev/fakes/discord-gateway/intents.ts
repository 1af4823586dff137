/**
 * @module
 * Discord's Gateway intents as its documentation lists them (discord/discord-api-docs, developers/events/gateway.mdx,
 * "List of Intents", "Privileged Intents", "Message Content Intent"): the bits that exist (an IDENTIFY with any
 * other is closed with 4013), the privileged ones (closed with 4014 unless the app has them enabled), the events
 * each intent gates (a guild's event needs the guild intent, a DM's the DM one; an event not listed always comes),
 * and what a connection without MESSAGE_CONTENT sees of a message: empty `content`, `embeds`, `attachments`,
 * `components` and no `poll`, except in the app's own messages, DMs with it and messages that mention it.
 */

const INTENT = {
  GUILDS: 1 << 0,
  GUILD_MEMBERS: 1 << 1,
  GUILD_MODERATION: 1 << 2,
  GUILD_EXPRESSIONS: 1 << 3,
  GUILD_INTEGRATIONS: 1 << 4,
  GUILD_WEBHOOKS: 1 << 5,
  GUILD_INVITES: 1 << 6,
  GUILD_VOICE_STATES: 1 << 7,
  GUILD_PRESENCES: 1 << 8,
  GUILD_MESSAGES: 1 << 9,
  GUILD_MESSAGE_REACTIONS: 1 << 10,
  GUILD_MESSAGE_TYPING: 1 << 11,
  DIRECT_MESSAGES: 1 << 12,
  DIRECT_MESSAGE_REACTIONS: 1 << 13,
  DIRECT_MESSAGE_TYPING: 1 << 14,
  MESSAGE_CONTENT: 1 << 15,
  GUILD_SCHEDULED_EVENTS: 1 << 16,
  AUTO_MODERATION_CONFIGURATION: 1 << 20,
  AUTO_MODERATION_EXECUTION: 1 << 21,
  GUILD_MESSAGE_POLLS: 1 << 24,
  DIRECT_MESSAGE_POLLS: 1 << 25,
} as const;

const DEFINED = Object.values(INTENT).reduce((all, bit) => all | bit, 0);
/** Need switching on in the developer portal (and approval past 100 servers). */
const PRIVILEGED = INTENT.GUILD_MEMBERS | INTENT.GUILD_PRESENCES | INTENT.MESSAGE_CONTENT;

/** A guild's events need `guild`; the same event outside a guild (a DM) needs `dm`. */
type Gate = { guild: number; dm?: number };
const guildOnly = (bit: number, events: string[]): [string, Gate][] => events.map((e) => [e, { guild: bit }]);
const guildOrDm = (guild: number, dm: number, events: string[]): [string, Gate][] =>
  events.map((e) => [e, { guild, dm }]);

const GATES = new Map<string, Gate>([
  ...guildOnly(INTENT.GUILDS, [
    "GUILD_CREATE",
    "GUILD_UPDATE",
    "GUILD_DELETE",
    "GUILD_ROLE_CREATE",
    "GUILD_ROLE_UPDATE",
    "GUILD_ROLE_DELETE",
    "CHANNEL_CREATE",
    "CHANNEL_UPDATE",
    "CHANNEL_DELETE",
    "THREAD_CREATE",
    "THREAD_UPDATE",
    "THREAD_DELETE",
    "THREAD_LIST_SYNC",
    "THREAD_MEMBER_UPDATE",
    "THREAD_MEMBERS_UPDATE",
    "STAGE_INSTANCE_CREATE",
    "STAGE_INSTANCE_UPDATE",
    "STAGE_INSTANCE_DELETE",
    "VOICE_CHANNEL_STATUS_UPDATE",
    "VOICE_CHANNEL_START_TIME_UPDATE",
  ]),
  ...guildOnly(INTENT.GUILD_MEMBERS, ["GUILD_MEMBER_ADD", "GUILD_MEMBER_UPDATE", "GUILD_MEMBER_REMOVE"]),
  ...guildOnly(INTENT.GUILD_MODERATION, ["GUILD_AUDIT_LOG_ENTRY_CREATE", "GUILD_BAN_ADD", "GUILD_BAN_REMOVE"]),
  ...guildOnly(INTENT.GUILD_EXPRESSIONS, [
    "GUILD_EMOJIS_UPDATE",
    "GUILD_STICKERS_UPDATE",
    "GUILD_SOUNDBOARD_SOUND_CREATE",
    "GUILD_SOUNDBOARD_SOUND_UPDATE",
    "GUILD_SOUNDBOARD_SOUND_DELETE",
    "GUILD_SOUNDBOARD_SOUNDS_UPDATE",
  ]),
  ...guildOnly(INTENT.GUILD_INTEGRATIONS, [
    "GUILD_INTEGRATIONS_UPDATE",
    "INTEGRATION_CREATE",
    "INTEGRATION_UPDATE",
    "INTEGRATION_DELETE",
  ]),
  ...guildOnly(INTENT.GUILD_WEBHOOKS, ["WEBHOOKS_UPDATE"]),
  ...guildOnly(INTENT.GUILD_INVITES, ["INVITE_CREATE", "INVITE_DELETE"]),
  ...guildOnly(INTENT.GUILD_VOICE_STATES, ["VOICE_CHANNEL_EFFECT_SEND", "VOICE_STATE_UPDATE"]),
  ...guildOnly(INTENT.GUILD_PRESENCES, ["PRESENCE_UPDATE"]),
  ...guildOrDm(INTENT.GUILD_MESSAGES, INTENT.DIRECT_MESSAGES, [
    "MESSAGE_CREATE",
    "MESSAGE_UPDATE",
    "MESSAGE_DELETE",
    "MESSAGE_DELETE_BULK",
  ]),
  ...guildOrDm(INTENT.GUILD_MESSAGE_REACTIONS, INTENT.DIRECT_MESSAGE_REACTIONS, [
    "MESSAGE_REACTION_ADD",
    "MESSAGE_REACTION_REMOVE",
    "MESSAGE_REACTION_REMOVE_ALL",
    "MESSAGE_REACTION_REMOVE_EMOJI",
  ]),
  ...guildOrDm(INTENT.GUILD_MESSAGE_TYPING, INTENT.DIRECT_MESSAGE_TYPING, ["TYPING_START"]),
  ...guildOrDm(INTENT.GUILDS, INTENT.DIRECT_MESSAGES, ["CHANNEL_PINS_UPDATE"]),
  ...guildOnly(INTENT.GUILD_SCHEDULED_EVENTS, [
    "GUILD_SCHEDULED_EVENT_CREATE",
    "GUILD_SCHEDULED_EVENT_UPDATE",
    "GUILD_SCHEDULED_EVENT_DELETE",
    "GUILD_SCHEDULED_EVENT_USER_ADD",
    "GUILD_SCHEDULED_EVENT_USER_REMOVE",
  ]),
  ...guildOnly(INTENT.AUTO_MODERATION_CONFIGURATION, [
    "AUTO_MODERATION_RULE_CREATE",
    "AUTO_MODERATION_RULE_UPDATE",
    "AUTO_MODERATION_RULE_DELETE",
  ]),
  ...guildOnly(INTENT.AUTO_MODERATION_EXECUTION, ["AUTO_MODERATION_ACTION_EXECUTION"]),
  ...guildOrDm(INTENT.GUILD_MESSAGE_POLLS, INTENT.DIRECT_MESSAGE_POLLS, [
    "MESSAGE_POLL_VOTE_ADD",
    "MESSAGE_POLL_VOTE_REMOVE",
  ]),
]);

/** Why an IDENTIFY's `intents` is refused, with Discord's close code; null when it is accepted. */
export function refusedIntents(
  intents: unknown,
  enabledPrivileged: number,
): { code: 4013 | 4014; reason: string } | null {
  if (typeof intents !== "number" || !Number.isInteger(intents) || intents < 0 || (intents & ~DEFINED) !== 0) {
    return { code: 4013, reason: "Invalid intent(s)." };
  }
  if ((intents & PRIVILEGED & ~enabledPrivileged) !== 0) return { code: 4014, reason: "Disallowed intent(s)." };
  return null;
}

/** Whether a connection with `intents` receives this dispatch. */
export function delivers(intents: number, t: string, d: unknown): boolean {
  const gate = GATES.get(t);
  if (!gate) return true;
  const inGuild = typeof (d as { guild_id?: unknown } | null)?.guild_id === "string";
  const needed = gate.dm !== undefined && !inGuild ? gate.dm : gate.guild;
  return (intents & needed) !== 0;
}

interface MessageLike {
  guild_id?: string;
  author?: { id?: string };
  mentions?: { id?: string }[];
  poll?: unknown;
}

/** The dispatch as a connection with `intents` sees it: a message's content emptied without MESSAGE_CONTENT. */
export function asSeenWith(intents: number, t: string, d: unknown, botUserId: string): unknown {
  if ((t !== "MESSAGE_CREATE" && t !== "MESSAGE_UPDATE") || (intents & INTENT.MESSAGE_CONTENT) !== 0) return d;
  const message = d as MessageLike;
  // Only a user mention is documented as "mentioned"; whether a mention of the app's role counts is not.
  const exempt =
    !message.guild_id || message.author?.id === botUserId || (message.mentions ?? []).some((m) => m.id === botUserId);
  if (exempt) return d;
  const { poll: _poll, ...rest } = message;
  return { ...rest, content: "", embeds: [], attachments: [], components: [] };
}
