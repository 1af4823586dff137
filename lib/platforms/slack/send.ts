/**
 * @module
 * Posts the bot's answer with Slack's `chat.postMessage`, split into messages of at most 4,000 characters of the
 * model's Markdown, each sent as `markdown_text` (./format.ts) and carrying the trigger's id and its part index as
 * message metadata, so that a later attempt of the job can find a post whose response never came back
 * (./find-part.ts) instead of posting it twice. Turns Slack's failures into
 * what the job flow acts on: RetryLater (429, once a short wait is past), GiveUp (permanent), Error (retry).
 */
import type { PartProgress } from "../../message.ts";
import { splitText } from "../../text/split.ts";
import type { ReadLog } from "../optional-read.ts";
import { postParts } from "../parts.ts";
import { waitingOutRateLimits } from "../rate-limited.ts";
import { callSlack, type SlackCallArgs } from "./api.ts";
import { findSlackPart, partMetadata, type SlackPlace } from "./find-part.ts";
import { slackMarkdown } from "./format.ts";
import { onWorkspaceDomain } from "./workspace-links.ts";

/** Slack truncates at 40,000 characters and advises staying under 4,000 per message. */
export const SLACK_MAX_MESSAGE_CHARS = 4_000;
const POST_MESSAGE_METHOD = "chat.postMessage";

export interface PostSlackMessageArgs extends SlackCallArgs, ReadLog {
  channel: string;
  threadTs?: string;
  text: string;
  /** The workspace posted in (its links go on its domain: ./workspace-links.ts). */
  tenant: string;
  /** Which parts to post and where to report them; its `answerId` tags every part (splitting is deterministic). */
  progress: PartProgress;
}

/**
 * Posts `text` in order as one or more messages; returns the `ts` of each message posted (or found) by this call.
 * Never puts the text in an error or a log.
 */
export async function postSlackMessage(args: PostSlackMessageArgs): Promise<string[]> {
  const { answerId } = args.progress;
  return postParts(splitText(args.text, SLACK_MAX_MESSAGE_CHARS), args.progress, {
    post: async (chunk, index) => postOne(args, answerId, await shownPart(args, args.tenant, chunk), index),
    async find(chunk, index, since) {
      const found = await findSlackPart(args, { answerId, index, since });
      if (!found) return null;
      // It may be a streamed answer's message that an attempt left mid-answer: it gets the part's text.
      const markdown = await shownPart(args, args.tenant, chunk);
      if (found.text !== markdown)
        await waitingOutRateLimits(() =>
          callSlack(args, "chat.update", { channel: args.channel, ts: found.ts, markdown_text: markdown }),
        );
      return found.ts;
    },
  });
}

/** A part of the answer as its message shows it: rendered (./format.ts), its permalinks on the workspace's domain. */
export function shownPart(call: SlackCallArgs & ReadLog, tenant: string, part: string): Promise<string> {
  return onWorkspaceDomain(call, tenant, slackMarkdown(part));
}

/**
 * Posts one part of the answer to `answerId` (already rendered: ./format.ts), tagged with its metadata; answers its
 * `ts`. A short 429 is waited out.
 */
export async function postOne(args: SlackPlace, answerId: string, markdown: string, index: number): Promise<string> {
  const { ts } = await waitingOutRateLimits(() =>
    callSlack(args, POST_MESSAGE_METHOD, {
      channel: args.channel,
      markdown_text: markdown,
      ...(args.threadTs ? { thread_ts: args.threadTs } : {}),
      metadata: partMetadata(answerId, index),
    }),
  );
  if (typeof ts !== "string" || !ts) throw new Error(`Slack ${POST_MESSAGE_METHOD} answered ok without a ts`);
  return ts;
}
