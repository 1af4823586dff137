/**
 * @module
 * Files on a Slack message (`files` of a `file_share` message): kept as references (id, `url_private`, type, size,
 * dimensions, name; a snippet is text whatever its type), and fetched by a reply job from `url_private` with the
 * workspace's bot token in the Authorization header, as Slack's docs ask (the app needs `files:read`). A file Slack
 * hides (`hidden_by_limit`, or one of another workspace that asks `check_file_info`) comes without a URL and is
 * left out. The token only ever goes to a file's URL: a path under `/files-pri/` on files.slack.com (or, for the
 * local stack's fake, on the configured Web API's own host); any other URL of those hosts gets no request at all.
 */
import * as z from "../../zod.ts";
import { storableRefs, type FileRef } from "../../files/file-ref.ts";
import { fetchCapped, servedFrom, type FileSupport } from "../file-fetch.ts";
import type { ReplyContext } from "../adapter.ts";
import type { SlackSettings } from "./settings.ts";

/** Where Slack serves `url_private`. */
const SLACK_FILES_ORIGIN = "https://files.slack.com";
/** The path of every `url_private` (and `url_private_download`): `/files-pri/<team>-<file id>/…`. */
const FILE_PATH = /^\/files-pri\/[^/]+\/./;

const slackFileSchema = z.looseObject({
  id: z.string().check(z.regex(/^F[A-Z0-9]+$/)),
  name: z.optional(z.nullable(z.string())),
  title: z.optional(z.nullable(z.string())),
  mimetype: z.optional(z.string()),
  filetype: z.optional(z.string()),
  mode: z.optional(z.string()),
  size: z.optional(z.number().check(z.int(), z.gte(0))),
  url_private: z.optional(z.string().check(z.url({ protocol: /^https?$/ }))),
  original_w: z.optional(z.coerce.number().check(z.int(), z.gte(1))),
  original_h: z.optional(z.coerce.number().check(z.int(), z.gte(1))),
});

/**
 * The message's files Parley can fetch, at most MAX_FILES_PER_MESSAGE; one that is not what Slack sends is left out.
 */
export function slackFileRefs(files: unknown): FileRef[] {
  if (!Array.isArray(files)) return [];
  const refs = files.flatMap((raw): FileRef[] => {
    const parsed = slackFileSchema.safeParse(raw);
    if (!parsed.success || !parsed.data.url_private) return [];
    const f = parsed.data;
    return [
      {
        id: f.id,
        url: f.url_private,
        name: (f.name ?? f.title ?? f.id).slice(0, 256),
        type: (f.mimetype ?? "").slice(0, 128),
        ...(f.size !== undefined ? { size: f.size } : {}),
        ...(f.original_w && f.original_h ? { width: f.original_w, height: f.original_h } : {}),
        ...(f.mode === "snippet" ? { snippet: true } : {}),
      },
    ];
  });
  return storableRefs(refs);
}

export const slackFiles: FileSupport<ReplyContext<SlackSettings>> = {
  async fetchFile(ctx, ref, maxBytes, keep) {
    if (!ref.url || !isFileUrl(ref.url, ctx.config.SLACK_API_BASE_URL)) return null;
    return fetchCapped(
      ctx.fetch,
      ref.url,
      { Authorization: `Bearer ${await ctx.token()}` },
      { maxBytes, keep, redirect: "manual" },
    );
  },
};

/** A file's URL on Slack's file host (or the configured API's, where the fake serves them): the token may go there. */
function isFileUrl(url: string, apiBaseUrl: string): boolean {
  return servedFrom(url, [SLACK_FILES_ORIGIN, apiBaseUrl]) && FILE_PATH.test(new URL(url).pathname);
}
