/**
 * @module
 * Files on a Google Chat message (`attachment[]`): an uploaded file is kept as a reference (its
 * `attachmentDataRef.resourceName`, name and type; Chat gives no size or dimensions), and fetched by a reply job
 * with `media.download` (`GET /v1/media/{resourceName}?alt=media`, the app's chat.bot token), the one way the Chat
 * API reference gives apps ("Chat apps shouldn't use [downloadUri] to download attachment content"). A Drive file
 * (`source: DRIVE_FILE`) is the Drive API's to read, with a person's consent: it is left out. The token only ever
 * goes to the configured Chat API.
 */
import { storableRefs, type FileRef } from "../../files/file-ref.ts";
import type { ReplyContext } from "../adapter.ts";
import { fetchCapped, type FileSupport } from "../file-fetch.ts";
import { chatToken, chatUrl } from "./api.ts";
import { attachmentSchema } from "./schema.ts";
import type { GoogleChatSettings } from "./settings.ts";

/** An opaque resource name: letters, digits and the few marks Google's names use; never a URL or a `..`. */
const RESOURCE_NAME = /^(?!.*\.\.)[A-Za-z0-9_./=+-]{1,512}$/;

export function googleChatFileRefs(attachments: unknown[] | undefined): FileRef[] {
  return storableRefs(
    (attachments ?? []).flatMap((raw): FileRef[] => {
      const parsed = attachmentSchema.safeParse(raw);
      if (!parsed.success) return [];
      const a = parsed.data;
      const resourceName = a.attachmentDataRef?.resourceName;
      if ((a.source && a.source !== "UPLOADED_CONTENT") || !resourceName || !RESOURCE_NAME.test(resourceName))
        return [];
      return [
        {
          id: resourceName,
          name: (a.contentName ?? "attachment").slice(0, 256),
          type: (a.contentType ?? "").slice(0, 128),
        },
      ];
    }),
  );
}

export const googleChatFiles: FileSupport<ReplyContext<GoogleChatSettings>> = {
  async fetchFile(ctx, ref, maxBytes, keep) {
    if (!RESOURCE_NAME.test(ref.id)) return null;
    const path = `media/${ref.id.split("/").map(encodeURIComponent).join("/")}`;
    return fetchCapped(
      ctx.fetch,
      chatUrl(ctx, path, { alt: "media" }),
      { Authorization: `Bearer ${await chatToken(ctx)}` },
      { maxBytes, keep },
    );
  },
};
