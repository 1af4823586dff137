/**
 * @module
 * Slack answers shown as they are written. In a thread (or an assistant thread) Slack's own stream:
 * `chat.startStream`, `chat.appendStream` once a second at most, `chat.stopStream` with the rest. Where Slack
 * refuses to stream (`channel_type_not_supported`, `unknown_method` on older workspaces), and for top-level
 * channel replies (a stream must be a thread reply, and the answer belongs where the person wrote), the first
 * part is posted as usual and edited with `chat.update` as it grows, its Markdown closed in each snapshot. Every
 * text goes as `markdown_text`, rendered by ./format.ts (a progress edit's as a markdown block, beside its Stop
 * button: ./stop.ts); a native stream appends what the rendered text adds, and one whose rendering changed what it
 * showed (a table taking shape) is finished with an edit. Slack's own Stop on a native stream is the person's.
 *
 * Every call is taken from the workspace's budget for its method (Slack's tiers count per method per workspace,
 * shared by all answers at once): a stream opens only when its start and stop fit, an edit stream only when its
 * final edit fits, and an intermediate append or edit that does not fit is left out (the next one carries it).
 */

import type { StreamState } from "../../message.ts";
import type { ReplyContext, StreamingCapability } from "../adapter.ts";
import { renderSnapshot } from "../answer-format.ts";
import type { AnswerFor, AnswerStream } from "../answer-stream.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { callSlack, type SlackCallArgs, type SlackMethods, slackErrorCode } from "./api.ts";
import { findEarlierOpen } from "./earlier-open.ts";
import { partMetadata, type SlackPlace } from "./find-part.ts";
import { slackFormat, slackMarkdown } from "./format.ts";
import { postOne, SLACK_MAX_MESSAGE_CHARS, shownPart } from "./send.ts";
import type { SlackSettings } from "./settings.ts";
import { withStopButton } from "./stop.ts";
import type { SlackTarget } from "./target.ts";

/** Slack's tiers, per method per workspace per minute (docs.slack.dev rate limits). */
const TIER_2 = 20;
const TIER_4 = 100;
/**
 * Tier 3 (50) for `chat.update`, split in two budgets that add up to it: the edits that finish answers, and the
 * edits that show them growing. Growing ones can then never use up the room a waiting answer needs to finish, and
 * finishing ones get most of it (22 a minute after the budget's halving): twenty people asking at once in one
 * workspace all see their answer start at once, and show growing as far as the rest allows.
 */
const FINAL_UPDATES = 44;
const PROGRESS_UPDATES = 6;
/** Slack asks for at most about one edit a second per message. */
const UPDATE_INTERVAL_MS = 1_000;
/** Slack will not stream here: answer with a posted message edited as it grows. */
const REFUSALS: ReadonlySet<string> = new Set(["channel_type_not_supported", "unknown_method", "invalid_thread_ts"]);
/** The stream ended on Slack's side (stopped by the person, or expired): what is left goes in with an edit. */
const ENDED: ReadonlySet<string> = new Set(["message_not_in_streaming_state", "stopped_by_user"]);

type SlackContext = ReplyContext<SlackSettings>;

export const slackStreaming: StreamingCapability<SlackTarget, SlackSettings> = {
  maxChars: SLACK_MAX_MESSAGE_CHARS,
  intervalMs: UPDATE_INTERVAL_MS,

  async open(ctx, target, text, answer) {
    const place = await placeOf(ctx, target);
    // An earlier attempt's open may have landed: its stream, or its posted first part, is this answer's message.
    const earlier = answer.unsure ? await findEarlierOpen(place, answer.triggerId, answer.unsure) : null;
    if (earlier?.mode === "native") return nativeStream(ctx, target, earlier.state, answer.triggerId);
    const threadTs = target.threadTs;
    if (!earlier && threadTs && (await ctx.callBudget("chat.startStream", TIER_2))) {
      try {
        const started = await waitingOutRateLimits(() =>
          callSlack(place, "chat.startStream", {
            channel: target.channel,
            thread_ts: threadTs,
            markdown_text: slackMarkdown(text),
            // Channel streams must name the person they answer, with their own workspace; DMs ignore these.
            recipient_user_id: answer.authorId,
            recipient_team_id: target.recipientTeam ?? workspaceOf(ctx.tenant),
          }),
        );
        if (typeof started.ts !== "string") throw new Error("Slack chat.startStream answered ok without a ts");
        return nativeStream(ctx, target, { id: started.ts, mode: "native", shown: text, open: true }, answer.triggerId);
      } catch (err) {
        const code = slackErrorCode(err);
        if (!code || !REFUSALS.has(code)) throw err;
        ctx.log.info("slack_stream_refused", { code });
      }
    }
    // The final edit is the one that must happen: without room for it, the answer is posted whole at the end.
    if (!(await ctx.callBudget("chat.update", FINAL_UPDATES))) return null;
    if (earlier) return editStream(ctx, target, { id: earlier.ts, mode: "edit", shown: "", open: false }, answer);
    const ts = await postOne(place, answer.triggerId, snapshot(text, target), 0);
    return editStream(ctx, target, { id: ts, mode: "edit", shown: text, open: false }, answer);
  },

  resume: (ctx, target, state, answer) =>
    state.mode === "native"
      ? nativeStream(ctx, target, { ...state }, answer.triggerId)
      : editStream(ctx, target, { ...state }, answer),
};

/** The workspace of a tenant: `T…`, or the `T…` of an org's `E…:T…`. */
const workspaceOf = (tenant: string) => tenant.slice(tenant.indexOf(":") + 1);

async function placeOf(ctx: SlackContext, target: SlackTarget): Promise<SlackPlace> {
  return {
    channel: target.channel,
    threadTs: target.threadTs,
    apiBaseUrl: ctx.config.SLACK_API_BASE_URL,
    botToken: await ctx.token(),
    fetch: ctx.fetch,
    log: ctx.log,
  };
}

/** A snapshot of the answer as an edited message shows it, its open marks closed. */
const snapshot = (text: string, target: SlackTarget) => renderSnapshot(slackFormat, text, target);

/** The rendered text still to add to a stream that shows `shown`; null when the rendering of `shown` changed. */
function addedText(text: string, shown: string): string | null {
  const [now, before] = [slackMarkdown(text), slackMarkdown(shown)];
  return now.startsWith(before) ? now.slice(before.length) : null;
}

function nativeStream(ctx: SlackContext, target: SlackTarget, state: StreamState, answerId: string): AnswerStream {
  const message = { channel: target.channel, ts: state.id } satisfies Pick<
    SlackMethods["chat.stopStream"],
    "channel" | "ts"
  >;
  /** Stops the stream with `markdown` added (a short rate limit waited out); false when Slack had ended it already. */
  const stop = async (markdown: string): Promise<boolean> => {
    let stopped = false;
    try {
      // The answer's metadata, as a posted first part has: a later lookup tells this finished stream from others'.
      const args = {
        ...message,
        ...(markdown ? { markdown_text: markdown } : {}),
        metadata: partMetadata(answerId, 0),
      };
      const place = await placeOf(ctx, target);
      await waitingOutRateLimits(() => callSlack(place, "chat.stopStream", args));
      stopped = true;
    } catch (err) {
      // Any other failure leaves it open, for a later attempt to close.
      if (!ENDED.has(slackErrorCode(err) ?? "")) throw err;
    }
    state.open = false;
    return stopped;
  };
  let personStopped = false;
  return {
    state,
    get personStopped() {
      return personStopped;
    },
    async show(text) {
      const added = state.open && text.startsWith(state.shown) ? addedText(text, state.shown) : null;
      if (!added || !(await ctx.callBudget("chat.appendStream", TIER_4))) return;
      try {
        await callSlack(await placeOf(ctx, target), "chat.appendStream", { ...message, markdown_text: added });
        state.shown = text;
      } catch (err) {
        // A missed append costs nothing: the next one, or the stop, carries the text.
        const code = slackErrorCode(err) ?? "";
        if (ENDED.has(code)) state.open = false;
        // Slack's own Stop, pressed by the person the stream is for: the answer ends as it stands.
        if (code === "stopped_by_user") personStopped = true;
        ctx.log.warn("slack_stream_append_failed", { code: slackErrorCode(err) ?? "error" });
      }
    },
    async finish(text) {
      const place = await placeOf(ctx, target);
      const final = await shownPart(place, ctx.tenant, text);
      // Appended only as it renders: a link put on the workspace's domain makes it another text (one edit).
      const appendable = state.open && text.startsWith(state.shown) && final === slackMarkdown(text);
      const added = appendable ? addedText(text, state.shown) : null;
      if (added !== null && (await stop(added))) {
        state.shown = text;
        return;
      }
      // The message shows something else than the final text's start (an earlier attempt's): one edit replaces it.
      if (state.open) await stop("");
      if (state.shown !== text || final !== slackMarkdown(text)) {
        // A stream an earlier attempt thought closed may still be open (its stop never came back): stop, then edit.
        await finalUpdate(place, state.id, final).catch(async (err: unknown) => {
          if (slackErrorCode(err) !== "streaming_state_conflict") throw err;
          await stop("");
          await finalUpdate(place, state.id, final);
        });
      }
      state.shown = text;
    },
    async close() {
      if (!state.open) return;
      await stop("").catch((err: unknown) =>
        ctx.log.warn("slack_stream_close_failed", { code: slackErrorCode(err) ?? "error" }),
      );
    },
  };
}

function editStream(ctx: SlackContext, target: SlackTarget, state: StreamState, answer: AnswerFor): AnswerStream {
  return {
    state,
    async show(text) {
      if (!(await ctx.callBudget("chat.update progress", PROGRESS_UPDATES))) return;
      try {
        // Each progress edit carries the Stop button (./stop.ts); the final edit's text alone takes it off.
        const place = await placeOf(ctx, target);
        const shown = withStopButton(snapshot(text, target), answer);
        await callSlack(place, "chat.update", { channel: place.channel, ts: state.id, ...shown });
        state.shown = text;
      } catch (err) {
        ctx.log.warn("slack_stream_update_failed", { code: slackErrorCode(err) ?? "error" });
      }
    },
    async finish(text) {
      const place = await placeOf(ctx, target);
      const final = await shownPart(place, ctx.tenant, text);
      // The message shows the last snapshot with its Markdown closed: the final text replaces it unless equal.
      if (state.shown !== text || snapshot(text, target) !== final) await finalUpdate(place, state.id, final);
      state.shown = text;
    },
    close: async () => undefined,
  };
}

async function updateMessage(args: SlackCallArgs & { channel: string }, ts: string, markdown: string): Promise<void> {
  await callSlack(args, "chat.update", { channel: args.channel, ts, markdown_text: markdown });
}

/**
 * The edit that leaves the answer whole waits out a short 429; a progress edit never does (the next one carries it).
 */
function finalUpdate(args: SlackCallArgs & { channel: string }, ts: string, markdown: string): Promise<void> {
  return waitingOutRateLimits(() => updateMessage(args, ts, markdown));
}
