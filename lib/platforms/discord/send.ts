/**
 * @module
 * Posts the bot's answer on Discord, split into messages of at most 2,000 characters, with no mention allowed to
 * ping anyone. An interaction answer edits the deferred "thinking…" message (`@original`, idempotent) and adds
 * follow-ups for the rest; a Gateway conversation answer is a channel message, a reply to its trigger when the
 * trigger addressed the bot.
 */
import * as z from "zod";
import { bytesToHex } from "../../crypto.ts";
import { GiveUp } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import type { PartProgress } from "../../message.ts";
import { splitText } from "../../text/split.ts";
import { DISCORD_ERROR, DiscordRefused, discordRequest } from "./rest.ts";
import type { ChannelTarget, DiscordTarget, InteractionTarget } from "./target.ts";

export const DISCORD_MAX_MESSAGE_CHARS = 2_000;
/** The model's text may contain `@everyone` or `<@id>`: nothing it writes may ping anyone. */
const NO_MENTIONS = { parse: [] as string[] };
/** Discord's `nonce` is at most 25 characters; with `enforce_nonce` a repeated post returns the first message. */
const NONCE_LENGTH = 25;
/** Discord answers these when an interaction token is no longer valid. */
const EXPIRED_TOKEN_CODES: ReadonlySet<number | undefined> = new Set([
  DISCORD_ERROR.UNKNOWN_WEBHOOK,
  DISCORD_ERROR.INVALID_WEBHOOK_TOKEN,
  DISCORD_ERROR.UNKNOWN_INTERACTION,
]);

export interface DiscordSendConfig {
  apiBaseUrl: string;
  /** Asked for channel messages only: interaction webhooks are authorized by their own token. */
  botToken(): Promise<string>;
  now: () => number;
  log: Logger;
  fetch?: typeof fetch;
}

const messageIdSchema = z.looseObject({ id: z.string() });

/** Posts `text` in order; returns the ids of the messages posted. */
export function sendDiscordReply(
  cfg: DiscordSendConfig,
  target: DiscordTarget,
  text: string,
  progress?: PartProgress,
): Promise<string[]> {
  return target.kind === "interaction" ? answerInteraction(cfg, target, text, progress) : postToChannel(cfg, target, text, progress);
}

async function answerInteraction(cfg: DiscordSendConfig, target: InteractionTarget, text: string, progress?: PartProgress): Promise<string[]> {
  const parts = splitText(text, DISCORD_MAX_MESSAGE_CHARS);
  const webhook = `/webhooks/${target.applicationId}/${target.token}`;
  const ids: string[] = [];
  try {
    for (const [index, content] of parts.entries()) {
      // Follow-ups are not idempotent: parts an earlier attempt posted are not posted again.
      if (index < (progress?.from ?? 0)) continue;
      if (cfg.now() >= target.expiresAt) throw new InteractionExpired();
      const posted = await discordRequest({
        apiBaseUrl: cfg.apiBaseUrl,
        fetch: cfg.fetch,
        ...(index === 0
          ? { method: "PATCH", path: `${webhook}/messages/@original`, what: "edit the original response" }
          : { method: "POST", path: webhook, what: "post a follow-up message" }),
        body: { content, allowed_mentions: NO_MENTIONS },
      });
      ids.push(messageIdSchema.parse(posted).id);
      progress?.onPart(index);
    }
  } catch (err) {
    const expired = err instanceof InteractionExpired || (err instanceof DiscordRefused && EXPIRED_TOKEN_CODES.has(err.discordCode));
    if (!expired) throw err;
    // Nobody can receive the answer any more: a retry cannot help, and this must not fail the job noisily.
    cfg.log.warn("discord_interaction_expired", { application: target.applicationId, parts: parts.length, posted: ids.length });
    throw new GiveUp("the interaction token expired before the answer was ready", "interaction_expired");
  }
  return ids;
}

async function postToChannel(cfg: DiscordSendConfig, target: ChannelTarget, text: string, progress?: PartProgress): Promise<string[]> {
  const botToken = await cfg.botToken();
  const parts = splitText(text, DISCORD_MAX_MESSAGE_CHARS);
  const ids: string[] = [];
  for (const [index, content] of parts.entries()) {
    if (index < (progress?.from ?? 0)) continue;
    const replyTo = index === 0 && target.replyToMessageId;
    const posted = await discordRequest({
      apiBaseUrl: cfg.apiBaseUrl,
      fetch: cfg.fetch,
      method: "POST",
      path: `/channels/${target.channelId}/messages`,
      what: "post a channel message",
      botToken,
      body: {
        content,
        allowed_mentions: NO_MENTIONS,
        // A retried job posts the same parts again: the nonce makes Discord return the first post instead.
        nonce: await nonceFor(target, index, content),
        enforce_nonce: true,
        ...(replyTo ? { message_reference: { message_id: replyTo, fail_if_not_exists: false } } : {}),
      },
    });
    ids.push(messageIdSchema.parse(posted).id);
    progress?.onPart(index);
  }
  return ids;
}

/** Same channel, same part, same text → same nonce. */
async function nonceFor(target: ChannelTarget, index: number, content: string): Promise<string> {
  const seed = `${target.channelId}:${target.replyToMessageId ?? ""}:${index}:${content}`;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(seed)));
  return bytesToHex(digest).slice(0, NONCE_LENGTH);
}

class InteractionExpired extends Error {}
