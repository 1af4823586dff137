/**
 * @module
 * Discord interactions as Discord sends them, for tests in Node and in workerd: signed requests (dev/signers), and
 * the payload shapes of PING, `/ask` and the "Ask <bot> about this" message command. Plus reading what the Discord
 * REST fake received.
 */
import type { RecordedDiscordCall } from "../../dev/fakes/discord.ts";
import { discordHeaders, type DiscordSigningKeys } from "../../dev/signers/discord.ts";

export const APPLICATION_ID = "100000000000000001";
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/** An interaction signed with `keys` (at `timestamp`, default now); `signature` replaces the one it would carry. */
export async function signedInteractionRequest(
  keys: DiscordSigningKeys,
  body: string,
  opts: { timestamp?: string; signature?: string } = {},
): Promise<Request> {
  const headers = await discordHeaders(keys.privateKey, body, opts.timestamp);
  if (opts.signature !== undefined) headers["X-Signature-Ed25519"] = opts.signature;
  return new Request("https://bot.test/discord/interactions", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body,
  });
}

let counter = 0n;
/** A fresh snowflake created now: unique per call. */
export function snowflake(at = Date.now()): string {
  counter = (counter + 1n) % 4096n;
  return String(((BigInt(at) - DISCORD_EPOCH_MS) << 22n) | (counter << 12n) | BigInt(Math.floor(Math.random() * 4096)));
}

const member = (userId: string, name: string) => ({
  user: { id: userId, username: name.toLowerCase(), global_name: name, avatar: null, discriminator: "0" },
  nick: null,
  roles: [],
  joined_at: "2024-01-01T00:00:00.000000+00:00",
  permissions: "2248473465835073",
});

interface Place {
  guildId?: string;
  channelId: string;
}

function interactionEnvelope(place: Place, user: { id: string; name: string }, type: number, data?: unknown) {
  const who = place.guildId
    ? { guild_id: place.guildId, member: member(user.id, user.name) }
    : { user: member(user.id, user.name).user };
  return {
    id: snowflake(),
    application_id: APPLICATION_ID,
    type,
    token: `aW50ZXJhY3Rpb246${snowflake()}${"x".repeat(40)}`,
    version: 1,
    channel_id: place.channelId,
    channel: { id: place.channelId, type: place.guildId ? 0 : 1 },
    app_permissions: "442368",
    locale: "en-US",
    ...(place.guildId ? { guild_locale: "en-US" } : {}),
    ...who,
    ...(data ? { data } : {}),
  };
}

export function pingInteraction() {
  return { id: snowflake(), application_id: APPLICATION_ID, type: 1, token: "ping-token", version: 1 };
}

export function askInteraction(place: Place, user: { id: string; name: string }, question: string) {
  return interactionEnvelope(place, user, 2, {
    id: snowflake(),
    name: "ask",
    type: 1,
    options: [{ name: "question", type: 3, value: question }],
  });
}

export function askAboutInteraction(
  place: Place,
  user: { id: string; name: string },
  target: { author: { id: string; name: string }; content: string },
) {
  const targetId = snowflake();
  return interactionEnvelope(place, user, 2, {
    id: snowflake(),
    name: "Ask Parley about this",
    type: 3,
    target_id: targetId,
    resolved: {
      messages: {
        [targetId]: {
          id: targetId,
          type: 0,
          channel_id: place.channelId,
          content: target.content,
          author: member(target.author.id, target.author.name).user,
          timestamp: new Date().toISOString(),
          edited_timestamp: null,
          mentions: [],
          attachments: [],
          embeds: [],
          pinned: false,
          tts: false,
          mention_everyone: false,
        },
      },
    },
  });
}

/** Calls the Discord REST fake accepted, filtered on their fields (e.g. `{ token }` or `{ channelId }`). */
export async function discordCalls(apiBaseUrl: string, filter: Record<string, string>): Promise<RecordedDiscordCall[]> {
  const query = new URLSearchParams(filter).toString();
  const res = await fetch(`${apiBaseUrl.replace(/\/api\/v10$/, "")}/__calls?${query}`);
  return (await res.json()) as RecordedDiscordCall[];
}

/** Scripts the next matching calls of the Discord REST fake to fail (see dev/fakes/discord.ts). */
export async function failDiscordCalls(apiBaseUrl: string, rule: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${apiBaseUrl.replace(/\/api\/v10$/, "")}/__fail`, {
    method: "POST",
    body: JSON.stringify(rule),
  });
  if (!res.ok) throw new Error(`scripting the Discord fake failed: ${res.status}`);
}

/** A person in `guildId` saying `content` in a channel through the fake Gateway, @mentioning `bot` when asked to. */
export const gatewaySpeaker =
  (controlUrl: string, guildId: string, bot: { id: string; username: string }) =>
  (channelId: string, author: { id: string; name: string }, content: string, mention = false) =>
    postThroughGateway(controlUrl, {
      guildId,
      channelId,
      author,
      content: mention ? `<@${bot.id}> ${content}` : content,
      ...(mention ? { mentions: [{ id: bot.id, username: bot.username }] } : {}),
    });

/** A channel message as a person would post it, dispatched by the fake Gateway; resolves with its id. */
export async function postThroughGateway(
  controlUrl: string,
  message: {
    /** Absent: a DM with the bot. */
    guildId?: string;
    channelId: string;
    author: { id: string; name: string; bot?: boolean };
    content: string;
    mentions?: { id: string; username: string }[];
    mentionRoles?: string[];
    replyTo?: { id: string; authorId: string };
    /** Files on it, as the Discord fake's `/__attachments` made them (test/support/files.ts). */
    attachments?: unknown[];
  },
): Promise<string> {
  const res = await fetch(`${controlUrl}/__message`, {
    method: "POST",
    body: JSON.stringify({
      ...(message.guildId ? { guild_id: message.guildId } : {}),
      channel_id: message.channelId,
      type: message.replyTo ? 19 : 0,
      content: message.content,
      author: {
        id: message.author.id,
        username: message.author.name.toLowerCase(),
        global_name: message.author.name,
        ...(message.author.bot ? { bot: true } : {}),
      },
      ...(message.guildId ? { member: { nick: null, roles: [] } } : {}),
      mentions: message.mentions ?? [],
      mention_roles: message.mentionRoles ?? [],
      attachments: message.attachments ?? [],
      ...(message.replyTo
        ? {
            message_reference: { message_id: message.replyTo.id },
            referenced_message: { id: message.replyTo.id, author: { id: message.replyTo.authorId, username: "x" } },
          }
        : {}),
    }),
  });
  return ((await res.json()) as { id: string }).id;
}

/** Drives the fake Gateway: `/__reconnect`, `/__invalid_session`, `/__drop_acks`, `/__close`. */
export async function controlGateway(controlUrl: string, path: string, body: unknown = {}): Promise<void> {
  const res = await fetch(`${controlUrl}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`fake Gateway ${path} answered ${res.status}`);
}

export async function gatewayState(
  controlUrl: string,
): Promise<{ connections: number; identifies: number; resumes: number; connected: boolean }> {
  return (await (await fetch(`${controlUrl}/__state`)).json()) as {
    connections: number;
    identifies: number;
    resumes: number;
    connected: boolean;
  };
}

/** A message a person wrote in `channel` at `at` (ms), put in the Discord fake as Discord would list it; its id. */
export async function discordMessageAt(
  apiBaseUrl: string,
  channel: string,
  author: { id: string; name: string },
  content: string,
  at: number,
): Promise<string> {
  const id = snowflake(at);
  const res = await fetch(`${apiBaseUrl.replace(/\/api\/v10$/, "")}/__messages`, {
    method: "POST",
    body: JSON.stringify({
      id,
      channel_id: channel,
      content,
      author: { id: author.id, username: author.name },
      timestamp: new Date(at).toISOString(),
    }),
  });
  if (!res.ok) throw new Error(`putting a message in the Discord fake failed: ${res.status}`);
  return id;
}
