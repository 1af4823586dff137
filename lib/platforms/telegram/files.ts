/**
 * @module
 * A photo or document on a Telegram message: kept as a reference (its `file_id`, and for a photo its largest size's
 * dimensions; Telegram sends photos as JPEG), and fetched by a reply job as the Bot API says: `getFile` gives the
 * file's path, downloadable at `<api>/file/bot<token>/<file_path>` (bots may download files up to 20 MB).
 */
import * as z from "../../zod.ts";
import { storableRefs, type FileRef } from "../../files/file-ref.ts";
import { fetchCapped, type FileSupport } from "../file-fetch.ts";
import type { ReplyContext } from "../adapter.ts";
import { callTelegram } from "./api.ts";
import type { TelegramSettings } from "./settings.ts";

const fileId = z.string().check(z.minLength(1), z.maxLength(256));
const size = z.optional(z.number().check(z.int(), z.gte(0)));
const photoSizeSchema = z.looseObject({
  file_id: fileId,
  width: z.number().check(z.int(), z.gte(1)),
  height: z.number().check(z.int(), z.gte(1)),
  file_size: size,
});
const documentSchema = z.looseObject({
  file_id: fileId,
  file_name: z.optional(z.string()),
  mime_type: z.optional(z.string()),
  file_size: size,
});
const fileSchema = z.looseObject({ file_path: z.optional(z.string().check(z.regex(/^[\w./-]+$/))) });

/** The message's photo (its largest size) or document; each read on its own, so an odd one is left out. */
export function telegramFileRefs(photo: unknown, document: unknown): FileRef[] {
  const sizes = z.array(photoSizeSchema).safeParse(photo);
  const largest = sizes.success ? sizes.data.at(-1) : undefined;
  const doc = document === undefined ? undefined : documentSchema.safeParse(document);
  return storableRefs([
    ...(largest
      ? [
          {
            id: largest.file_id,
            name: "photo.jpg",
            type: "image/jpeg",
            width: largest.width,
            height: largest.height,
            ...(largest.file_size !== undefined ? { size: largest.file_size } : {}),
          },
        ]
      : []),
    ...(doc?.success
      ? [
          {
            id: doc.data.file_id,
            name: (doc.data.file_name ?? "document").slice(0, 256),
            type: (doc.data.mime_type ?? "").slice(0, 128),
            ...(doc.data.file_size !== undefined ? { size: doc.data.file_size } : {}),
          },
        ]
      : []),
  ]);
}

export const telegramFiles: FileSupport<ReplyContext<TelegramSettings>> = {
  async fetchFile(ctx, ref, maxBytes, keep) {
    const call = { apiBaseUrl: ctx.config.TELEGRAM_API_BASE_URL, token: await ctx.token(), fetch: ctx.fetch };
    const file = fileSchema.parse(await callTelegram(call, "getFile", { file_id: ref.id }));
    if (!file.file_path) return null;
    return fetchCapped(ctx.fetch, `${call.apiBaseUrl}/file/bot${call.token}/${file.file_path}`, {}, { maxBytes, keep });
  },
};
