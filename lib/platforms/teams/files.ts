/**
 * @module
 * Files pasted into a Teams message ("Send and receive files", "Receive images from users"), kept as references and
 * fetched by a reply job: an image pasted into the message (`image/*`, its `contentUrl` on the Bot Connector,
 * `{serviceUrl}/v3/attachments/{id}/views/original`) is served only with the bot's token, so it is fetched only from
 * a host the token may go to (./service-url.ts); a file sent in a 1:1 chat arrives as Teams' file download info
 * (`application/vnd.microsoft.teams.file.download.info`, `content.downloadUrl` a short-lived pre-authenticated
 * SharePoint address), fetched without any token and only from `*.sharepoint.com` over HTTPS. The message's HTML copy
 * (`text/html`) and cards are not files.
 */
import { type FileRef, storableRefs } from "../../files/file-ref.ts";
import * as z from "../../zod.ts";
import { fetchCapped, type FileSupport } from "../file-fetch.ts";
import type { TeamsContext } from "./api.ts";
import { serviceUrlAllowed } from "./service-url.ts";
import { connectorToken } from "./token.ts";

const DOWNLOAD_INFO = "application/vnd.microsoft.teams.file.download.info";
const SHAREPOINT = /(^|\.)sharepoint\.com$/;
const downloadInfoSchema = z.looseObject({
  downloadUrl: z.url({ protocol: /^https$/ }),
  fileType: z.optional(z.string()),
});

interface Attachment {
  contentType: string;
  contentUrl?: string | undefined;
  name?: string | undefined;
  content?: unknown;
}

function onSharePoint(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" && SHAREPOINT.test(parsed.hostname);
  } catch {
    return false;
  }
}

export function teamsFileRefs(attachments: readonly Attachment[] | undefined): FileRef[] {
  return storableRefs(
    (attachments ?? []).flatMap((a): FileRef[] => {
      if (a.contentType.startsWith("image/") && a.contentUrl)
        return [{ id: a.contentUrl, url: a.contentUrl, name: (a.name ?? "image").slice(0, 256), type: a.contentType }];
      if (a.contentType !== DOWNLOAD_INFO) return [];
      const info = downloadInfoSchema.safeParse(a.content);
      if (!info.success || !onSharePoint(info.data.downloadUrl)) return [];
      const url = info.data.downloadUrl;
      return [{ id: url, url, name: (a.name ?? "file").slice(0, 256), type: "" }];
    }),
  );
}

export const teamsFiles: FileSupport<TeamsContext> = {
  async fetchFile(ctx, ref, maxBytes, keep) {
    const url = ref.url ?? ref.id;
    if (onSharePoint(url)) return fetchCapped(ctx.fetch, url, {}, { maxBytes, keep, redirect: "manual" });
    if (!serviceUrlAllowed(ctx.config, url)) return null;
    const token = await connectorToken({
      config: ctx.config,
      secret: await ctx.token(),
      fetch: ctx.fetch,
      now: ctx.now,
    });
    return fetchCapped(ctx.fetch, url, { Authorization: `Bearer ${token}` }, { maxBytes, keep, redirect: "manual" });
  },
};
