/**
 * @module
 * What a route of the Discord REST fake declares, so that the server applies bot authentication, scripted
 * faults and rate limits the same way to all of them before the route carries the request out.
 */
import type { ServerResponse } from "node:http";
import type { DiscordBucketName, DiscordLimits } from "./buckets.ts";
import type { FakeGuild } from "./permissions.ts";
import type { DiscordInteractions } from "./interactions.ts";
import { DISCORD_FAKE_BOT, type DiscordMessages, type PostedChannelMessage } from "./messages.ts";

type DiscordRouteName =
  | "edit_original"
  | "get_original"
  | "followup"
  | "edit_followup"
  | "channel_message"
  | "edit_message"
  | "typing"
  | "register_commands"
  | "gateway_bot"
  | "get_channel"
  | "get_message"
  | "get_guild"
  | "get_member"
  | "get_guild_channels"
  | "create_dm"
  | "list_messages";

/** What a route records of a call it carried out. */
interface DiscordCallFields {
  route: DiscordRouteName;
  id?: string;
  applicationId?: string;
  token?: string;
  channelId?: string;
  guildId?: string;
  content?: string;
  nonce?: unknown;
  allowed_mentions?: unknown;
  message_reference?: unknown;
  commands?: unknown[];
}

/**
 * One accepted call: a message as people would see it, an edit, a typing indicator, a command registration, a channel's
 * listing.
 */
export interface RecordedDiscordCall extends DiscordCallFields, Record<string, unknown> {
  /** Epoch ms. */
  at: number;
}

export interface DiscordSettings {
  limits: DiscordLimits;
  /** How long `enforce_nonce` returns the first message for a repeated nonce ("a few minutes" per Discord). */
  nonceWindowMs: number;
}

export interface RouteContext {
  method: string;
  path: string[];
  query: URLSearchParams;
  body: Record<string, unknown>;
  botToken?: string;
  messages: DiscordMessages;
  /** The interactions Discord sent and how the app answered each (the webhook routes' tokens). */
  interactions: DiscordInteractions;
  /** Channels a test described (`POST /__channel`), by id. */
  channels: ReadonlyMap<string, Record<string, unknown>>;
  /** Guilds a test described (`POST /__guild`, ./guild-routes.ts), by id. */
  guilds: ReadonlyMap<string, FakeGuild>;
  /** The bot's permissions in a channel (./permissions.ts). */
  permissionsIn(channelId: string): bigint;
  nextId(): string;
  /** The bot's DM channel with `userId`: the same one every time (./user-routes.ts). */
  dmChannel(userId: string): string;
  settings(): DiscordSettings;
  record(call: DiscordCallFields): void;
  onChannelMessage?: (message: PostedChannelMessage) => void;
}

interface RouteOutcome {
  status: number;
  body?: unknown;
  /** Runs once the answer is sent (e.g. the Gateway echo of a channel post). */
  after?: () => void;
}

export interface DiscordRoute {
  name: DiscordRouteName;
  bucket?: DiscordBucketName;
  /** The top-level resource the bucket is keyed on (channel id, or webhook id + token). */
  resource: string;
  needsBot: boolean;
  /** Fields a fault rule can match (`token`, `channelId`, `applicationId`, `messageId`, ...). */
  fields: Record<string, string>;
  /** Validates and carries out the request; answers an error itself and returns undefined when it refuses. */
  run(res: ServerResponse): RouteOutcome | undefined | Promise<RouteOutcome | undefined>;
}

export function botMessage(
  id: string,
  channelId: string,
  content: string,
  extra: Partial<PostedChannelMessage> = {},
): PostedChannelMessage {
  return {
    id,
    channel_id: channelId,
    content,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    author: { id: DISCORD_FAKE_BOT.userId, username: DISCORD_FAKE_BOT.username, bot: true },
    ...extra,
  };
}
