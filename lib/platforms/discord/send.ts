/**
 * @module
 * Posts the bot's answer on Discord, split into messages of at most 2,000 characters in Discord's Markdown
 * (./format.ts), with no mention allowed to ping anyone. An interaction answer edits the deferred "thinking…" message
 * (`@original`, idempotent) and adds
 * follow-ups for the rest; a Gateway conversation answer is a channel message, a reply to its trigger when the
 * trigger addressed the bot, each part with a nonce made of the trigger's id and the part's index.
 */
import type {
  APIAllowedMentions,
  RESTPatchAPIChannelMessageJSONBody,
  RESTPatchAPIInteractionOriginalResponseJSONBody,
  RESTPostAPIChannelMessageJSONBody,
  RESTPostAPIInteractionFollowupJSONBody,
} from "discord-api-types/v10";
import * as z from "../../zod.ts";
import { bytesToHex } from "../../crypto.ts";
import { GiveUp, RetryLater } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import type { PartProgress } from "../../message.ts";
import { splitText } from "../../text/split.ts";
import { postParts } from "../parts.ts";
import { DISCORD_MAX_MESSAGE_CHARS, discordMarkdown } from "./format.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { INTERACTION_TOKEN_LIFETIME_MS } from "./parse.ts";
import { DISCORD_ERROR, DiscordRefused, discordRequest } from "./rest.ts";
import type { ChannelTarget, DiscordTarget, InteractionTarget } from "./target.ts";

/** The model's text may contain `@everyone` or `<@id>`: nothing it writes may ping anyone. */
export const NO_MENTIONS: APIAllowedMentions = { parse: [] };
/** Discord's `nonce` is at most 25 characters; with `enforce_nonce` a repeated post returns the first message. */
const NONCE_LENGTH = 25;
/** Discord answers these when an interaction token is no longer valid. */
const EXPIRED_TOKEN_CODES: ReadonlySet<number | undefined> = new Set([
  DISCORD_ERROR.UNKNOWN_WEBHOOK,
  DISCORD_ERROR.INVALID_WEBHOOK_TOKEN,
  DISCORD_ERROR.UNKNOWN_INTERACTION,
]);

/**
 * Discord knows an interaction's webhook only once it has the acknowledgement (our `{"type":5}`); a job quick enough
 * to edit before that gets 10015 Unknown Webhook. Within this long of the interaction it is tried again soon.
 */
const ACKNOWLEDGEMENT_GRACE_MS = 10_000;
const ACKNOWLEDGEMENT_RETRY_SECONDS = 2;

export interface DiscordSendConfig {
  apiBaseUrl: string;
  /** Asked for channel messages only: interaction webhooks are authorized by their own token. */
  botToken(): Promise<string>;
  now: () => number;
  log: Logger;
  fetch?: typeof fetch;
}

export const messageIdSchema = z.looseObject({ id: z.string() });
export const postedMessageSchema = z.extend(messageIdSchema, { content: z.optional(z.string()) });

/** The answer's parts as Discord shows them: cut where ../../text/split.ts cuts, each rendered (./format.ts). */
const discordParts = (text: string) => splitText(text, DISCORD_MAX_MESSAGE_CHARS).map(discordMarkdown);

/** Posts `text` in order; returns the ids of the messages posted. */
export function sendDiscordReply(
  cfg: DiscordSendConfig,
  target: DiscordTarget,
  text: string,
  progress: PartProgress,
): Promise<string[]> {
  return target.kind === "interaction"
    ? answerInteraction(cfg, target, text, progress)
    : postToChannel(cfg, target, text, progress);
}

async function answerInteraction(
  cfg: DiscordSendConfig,
  target: InteractionTarget,
  text: string,
  progress: PartProgress,
): Promise<string[]> {
  const parts = discordParts(text);
  const webhook = `/webhooks/${target.applicationId}/${target.token}`;
  let posted = 0;
  try {
    // The first part edits the deferred message, which is idempotent; follow-ups are not, and webhooks take no
    // nonce: a follow-up whose response was lost can appear twice (docs/architecture.md, "Exactly one answer").
    return await postParts(parts, progress, {
      async post(content, index) {
        if (cfg.now() >= target.expiresAt) throw new InteractionExpired();
        const sent = await waitingOutRateLimits(() =>
          discordRequest({
            apiBaseUrl: cfg.apiBaseUrl,
            fetch: cfg.fetch,
            ...(index === 0
              ? { method: "PATCH", path: `${webhook}/messages/@original`, what: "edit the original response" }
              : { method: "POST", path: webhook, what: "post a follow-up message" }),
            body: { content, allowed_mentions: NO_MENTIONS } satisfies RESTPatchAPIInteractionOriginalResponseJSONBody &
              RESTPostAPIInteractionFollowupJSONBody,
          }),
        );
        posted += 1;
        return messageIdSchema.parse(sent).id;
      },
    });
  } catch (err) {
    const early = earlyRefusal(err, target, cfg.now());
    if (early) throw early;
    const expired =
      err instanceof InteractionExpired || (err instanceof DiscordRefused && EXPIRED_TOKEN_CODES.has(err.discordCode));
    if (!expired) throw err;
    // Nobody can receive the answer any more: a retry cannot help, and this must not fail the job noisily.
    cfg.log.warn("discord_interaction_expired", { application: target.applicationId, parts: parts.length, posted });
    throw new GiveUp("the interaction token expired before the answer was ready", "interaction_expired");
  }
}

async function postToChannel(
  cfg: DiscordSendConfig,
  target: ChannelTarget,
  text: string,
  progress: PartProgress,
): Promise<string[]> {
  const botToken = await cfg.botToken();
  return postParts(discordParts(text), progress, {
    async post(content, index) {
      const replyTo = index === 0 && target.replyToMessageId;
      const nonce = await partNonce(progress.answerId, index);
      const postPart = (replying: boolean) =>
        waitingOutRateLimits(() =>
          discordRequest({
            apiBaseUrl: cfg.apiBaseUrl,
            fetch: cfg.fetch,
            method: "POST",
            path: `/channels/${target.channelId}/messages`,
            what: "post a channel message",
            botToken,
            body: {
              content,
              allowed_mentions: NO_MENTIONS,
              // Posting a part again within Discord's nonce window returns the message of the first post: that is
              // the lookup a retry needs (no `find`), whatever text it carries.
              nonce,
              enforce_nonce: true,
              ...(replying && replyTo ? { message_reference: { message_id: replyTo, fail_if_not_exists: false } } : {}),
            } satisfies RESTPostAPIChannelMessageJSONBody,
          }),
        );
      // A reply needs Read Message History; without it the bot may still post in the channel: unlinked, then.
      const sent = await postPart(true).catch((err: unknown) => {
        if (replyTo && err instanceof DiscordRefused && err.discordCode === DISCORD_ERROR.MISSING_PERMISSIONS)
          return postPart(false);
        throw err;
      });
      const { id, content: shown } = postedMessageSchema.parse(sent);
      // The first post may be a streamed answer's message that an attempt left mid-answer: it gets the part's text.
      if (shown !== undefined && shown !== content) {
        await waitingOutRateLimits(() =>
          discordRequest({
            apiBaseUrl: cfg.apiBaseUrl,
            fetch: cfg.fetch,
            method: "PATCH",
            path: `/channels/${target.channelId}/messages/${id}`,
            what: "edit a channel message",
            botToken,
            body: { content, allowed_mentions: NO_MENTIONS } satisfies RESTPatchAPIChannelMessageJSONBody,
          }),
        );
      }
      return id;
    },
  });
}

/** A 10015 in an interaction's first seconds: Discord has not taken the acknowledgement yet, so try again soon. */
export function earlyRefusal(err: unknown, target: InteractionTarget, now: number): RetryLater | undefined {
  const sentAt = target.expiresAt - INTERACTION_TOKEN_LIFETIME_MS;
  if (
    !(err instanceof DiscordRefused) ||
    err.discordCode !== DISCORD_ERROR.UNKNOWN_WEBHOOK ||
    now >= sentAt + ACKNOWLEDGEMENT_GRACE_MS
  )
    return undefined;
  return new RetryLater("Discord has not taken the interaction's acknowledgement yet", ACKNOWLEDGEMENT_RETRY_SECONDS);
}

/** One answer's part `index` → the same nonce on every attempt; another answer's parts never share it. */
export async function partNonce(answerId: string, index: number): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${answerId}:${index}`)),
  );
  return bytesToHex(digest).slice(0, NONCE_LENGTH);
}

class InteractionExpired extends Error {}
