/**
 * @module
 * Discord answers shown as they are written: the first part is posted at once (a Gateway answer as a channel
 * message with the part's nonce, so that an attempt that never heard back gets the same message again; an
 * interaction's deferred "thinking…" message edited) and then edited at most once a second as it grows, its
 * Markdown closed in each snapshot and rendered for Discord (./format.ts), a Stop button under it (./stop.ts) until
 * the final edit. Past 2,000 characters the message stops
 * growing and the rest follows as further messages once the answer is complete (cut where ../../text/split.ts
 * cuts, never inside a word).
 */
import type {
  RESTPatchAPIChannelMessageJSONBody,
  RESTPatchAPIInteractionOriginalResponseJSONBody,
  RESTPostAPIChannelMessageJSONBody,
} from "discord-api-types/v10";
import { RetryLater } from "../../errors.ts";
import type { StreamState } from "../../message.ts";
import type { ReplyContext, StreamingCapability } from "../adapter.ts";
import { renderSnapshot } from "../answer-format.ts";
import type { AnswerFor, AnswerStream } from "../answer-stream.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { discordRequest } from "./rest.ts";
import { DISCORD_MAX_MESSAGE_CHARS, discordFormat, discordMarkdown } from "./format.ts";
import { earlyRefusal, messageIdSchema, NO_MENTIONS, partNonce } from "./send.ts";
import type { DiscordSettings } from "./settings.ts";
import { stopRow } from "./stop.ts";
import type { DiscordTarget } from "./target.ts";

/**
 * Discord documents no edit rate; its buckets allow about five a channel per five seconds. One a second leaves room.
 */
const EDIT_INTERVAL_MS = 1_000;
/** Progress edits a channel's answers make in a minute, of the sixty or so its bucket allows: room for the rest. */
const PROGRESS_EDITS_PER_MINUTE = 50;

export const discordStreaming: StreamingCapability<DiscordTarget, DiscordSettings> = {
  maxChars: DISCORD_MAX_MESSAGE_CHARS,
  intervalMs: EDIT_INTERVAL_MS,

  async open(ctx, target, text, answer) {
    if (target.kind === "interaction") {
      // Too late to edit: `send` says so (and gives up) when the answer is complete.
      if (ctx.now() >= target.expiresAt) return null;
      const id = await waitingOutRateLimits(() => edit(ctx, target, "@original", snapshot(text, target))).catch(
        (err: unknown) => {
          throw earlyRefusal(err, target, ctx.now()) ?? err;
        },
      );
      return editStream(ctx, target, { id, mode: "edit", shown: text, open: false }, answer);
    }
    const body = {
      content: snapshot(text, target),
      allowed_mentions: NO_MENTIONS,
      // The first part's nonce, as `send` would post it: an open that is tried again returns the same message.
      nonce: await partNonce(answer.triggerId, 0),
      enforce_nonce: true,
      ...(target.replyToMessageId
        ? { message_reference: { message_id: target.replyToMessageId, fail_if_not_exists: false } }
        : {}),
    } satisfies RESTPostAPIChannelMessageJSONBody;
    const botToken = await ctx.token();
    const sent = await waitingOutRateLimits(() =>
      discordRequest({
        apiBaseUrl: ctx.config.DISCORD_API_BASE_URL,
        fetch: ctx.fetch,
        method: "POST",
        path: `/channels/${target.channelId}/messages`,
        what: "post a channel message",
        botToken,
        body,
      }),
    );
    const state = { id: messageIdSchema.parse(sent).id, mode: "edit" as const, shown: text, open: false };
    return editStream(ctx, target, state, answer);
  },

  // A resumed stream may have shown its Stop button: its final edit takes the row away whatever it shows.
  resume: (ctx, target, state, answer) => editStream(ctx, target, { ...state }, answer, true),
};

/** A snapshot of the answer as the message shows it while it grows, its open marks closed. */
const snapshot = (text: string, target: DiscordTarget) => renderSnapshot(discordFormat, text, target);

function editStream(
  ctx: ReplyContext<DiscordSettings>,
  target: DiscordTarget,
  state: StreamState,
  answer: AnswerFor,
  buttoned = false,
): AnswerStream {
  // Several answers may grow in one channel: their progress edits share its budget (the job's Stop mark is read
  // with it, lib/jobs/write.ts); an `/ask` answer's edits go through its own interaction's webhook.
  const budgetOf = target.kind === "channel" ? `channel ${target.channelId}` : `message ${state.id}`;
  return {
    state,
    async show(text) {
      if (!(await ctx.callBudget(`edit progress ${budgetOf}`, PROGRESS_EDITS_PER_MINUTE))) return;
      try {
        await edit(ctx, target, state.id, snapshot(text, target), [stopRow(answer)]);
        buttoned = true;
        state.shown = text;
      } catch (err) {
        // A refused edit is left out (the next one, or the final one, carries the text); a bucket is never pushed,
        // nor waited for.
        ctx.log.warn("discord_stream_edit_failed", { reason: err instanceof RetryLater ? "rate_limited" : "error" });
      }
    },
    async finish(text) {
      // The edit that leaves the answer whole waits out a short rate limit (Discord's buckets: often under a second).
      // The Stop button goes with it (an edit without `components` would keep it).
      if (buttoned || state.shown !== text || snapshot(text, target) !== discordMarkdown(text))
        await waitingOutRateLimits(() => edit(ctx, target, state.id, discordMarkdown(text), []));
      buttoned = false;
      state.shown = text;
    },
    close: async () => undefined,
  };
}

/** Edits the message `id` (an interaction's `@original` by its webhook), its row of buttons `components` if given. */
async function edit(
  ctx: ReplyContext<DiscordSettings>,
  target: DiscordTarget,
  id: string,
  content: string,
  components?: ReturnType<typeof stopRow>[],
): Promise<string> {
  const body = {
    content,
    allowed_mentions: NO_MENTIONS,
    ...(components ? { components } : {}),
  } satisfies RESTPatchAPIInteractionOriginalResponseJSONBody & RESTPatchAPIChannelMessageJSONBody;
  const sent =
    target.kind === "interaction"
      ? await discordRequest({
          apiBaseUrl: ctx.config.DISCORD_API_BASE_URL,
          fetch: ctx.fetch,
          method: "PATCH",
          path: `/webhooks/${target.applicationId}/${target.token}/messages/@original`,
          what: "edit the original response",
          body,
        })
      : await discordRequest({
          apiBaseUrl: ctx.config.DISCORD_API_BASE_URL,
          fetch: ctx.fetch,
          method: "PATCH",
          path: `/channels/${target.channelId}/messages/${id}`,
          what: "edit a channel message",
          botToken: await ctx.token(),
          body,
        });
  return messageIdSchema.parse(sent).id;
}
