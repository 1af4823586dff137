/**
 * @module
 * The messages the bot made on the Discord fake, channel posts and interaction responses alike: created (a
 * channel post with `enforce_nonce` returns the message the same bot already made with that nonce within the
 * window, as Discord does), edited (`edited_timestamp`), each keeping the time of every change of its content.
 */

/** The bot the fake posts as: its user id is its application id, as for every bot made since 2019. */
export const DISCORD_FAKE_BOT = {
  userId: "100000000000000001",
  applicationId: "100000000000000001",
  username: "Parley",
};

/** A message as Discord returns it (and as the Gateway echoes a channel post in MESSAGE_CREATE). */
export interface PostedChannelMessage {
  id: string;
  channel_id: string;
  content: string;
  timestamp: string;
  edited_timestamp?: string | null;
  author: { id: string; username: string; global_name?: string | null; bot?: boolean };
  nonce?: string | number;
  message_reference?: unknown;
  webhook_id?: string;
  /** An interaction's deferred "thinking…" message carries LOADING (128) until its first edit. */
  flags?: number;
  /** A person's files (`POST /__messages`). */
  attachments?: Record<string, unknown>[];
  /** Its action rows of buttons, as the last create or edit that had them left them (./components.ts). */
  components?: unknown[];
}

export interface StoredDiscordMessage {
  message: PostedChannelMessage;
  /** The interaction token for webhook messages. */
  token?: string;
  revisions: { at: number; route: string; chars: number }[];
}

export class DiscordMessages {
  #byId = new Map<string, StoredDiscordMessage>();
  #nonces = new Map<string, { id: string; at: number }>();
  /** Interaction token → id of its `@original` message (one per interaction, kept across edits). */
  #originals = new Map<string, string>();

  create(message: PostedChannelMessage, route: string, token?: string, now = Date.now()): StoredDiscordMessage {
    const stored = {
      message,
      ...(token ? { token } : {}),
      revisions: [{ at: now, route, chars: message.content.length }],
    };
    this.#byId.set(message.id, stored);
    return stored;
  }

  get(id: string): StoredDiscordMessage | undefined {
    return this.#byId.get(id);
  }

  edit(
    stored: StoredDiscordMessage,
    content: string | undefined,
    route: string,
    now = Date.now(),
  ): PostedChannelMessage {
    if (content !== undefined) stored.message.content = content;
    stored.message.edited_timestamp = new Date(now).toISOString();
    stored.revisions.push({ at: now, route, chars: stored.message.content.length });
    return stored.message;
  }

  /** The message this author already made with this nonce within `windowMs`, if any. */
  byNonce(
    author: string,
    nonce: string | number,
    windowMs: number,
    now = Date.now(),
  ): PostedChannelMessage | undefined {
    const seen = this.#nonces.get(`${author}|${String(nonce)}`);
    return seen && now - seen.at <= windowMs ? this.#byId.get(seen.id)?.message : undefined;
  }

  rememberNonce(author: string, nonce: string | number, id: string, now = Date.now()): void {
    this.#nonces.set(`${author}|${String(nonce)}`, { id, at: now });
  }

  original(token: string): StoredDiscordMessage | undefined {
    const id = this.#originals.get(token);
    return id ? this.#byId.get(id) : undefined;
  }

  setOriginal(token: string, id: string): void {
    this.#originals.set(token, id);
  }

  all(): StoredDiscordMessage[] {
    return [...this.#byId.values()];
  }

  reset(): void {
    this.#byId.clear();
    this.#nonces.clear();
    this.#originals.clear();
  }
}
