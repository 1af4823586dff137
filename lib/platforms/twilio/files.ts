/**
 * @module
 * Media on an MMS or WhatsApp message (`NumMedia`, `MediaUrl{N}`, `MediaContentType{N}`): kept as references (the
 * media URL and its type; Twilio gives no name or size) and fetched by a reply job from the URL with the account's
 * sid and auth token by HTTP Basic, which Twilio asks for when "Enforce HTTP Auth on Media URLs" is on (and
 * ignores when it is off). Only media of the message's own account, on Twilio's API host, is fetched.
 */
import { basicAuthorization } from "../../base64.ts";
import { type FileRef, MAX_FILES_PER_MESSAGE, storableRefs } from "../../files/file-ref.ts";
import type { ReplyContext } from "../adapter.ts";
import { type FileSupport, fetchCapped, servedFrom } from "../file-fetch.ts";
import type { TwilioSettings } from "./settings.ts";

/** A media URL: `/2010-04-01/Accounts/AC…/Messages/MM…/Media/ME…`. */
const MEDIA_PATH =
  /^\/2010-04-01\/Accounts\/(AC[A-Za-z0-9]{1,64})\/Messages\/[A-Z]{2}[A-Za-z0-9]{1,64}\/Media\/(ME[A-Za-z0-9]{1,64})$/;
/** A file name for the prompt, from the type Twilio reports. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "text/plain": "txt",
  "text/csv": "csv",
  "application/json": "json",
  "application/pdf": "pdf",
};

/** The media of a form: each `MediaUrl{N}` that is a Twilio media URL, with its `MediaContentType{N}`. */
export function twilioFileRefs(form: Record<string, unknown>, numMedia: number): FileRef[] {
  const refs: FileRef[] = [];
  for (let n = 0; n < Math.min(numMedia, MAX_FILES_PER_MESSAGE); n++) {
    const url = form[`MediaUrl${n}`];
    const type = form[`MediaContentType${n}`];
    if (typeof url !== "string" || url.length > 2_048) continue;
    const media = mediaSid(url);
    if (!media) continue;
    const mime = typeof type === "string" ? type.slice(0, 128) : "";
    refs.push({ id: media.sid, url, name: `${media.sid}.${EXTENSIONS[mime] ?? "bin"}`, type: mime });
  }
  return storableRefs(refs);
}

function mediaSid(url: string): { account: string; sid: string } | null {
  try {
    const match = MEDIA_PATH.exec(new URL(url).pathname);
    return match ? { account: match[1]!, sid: match[2]! } : null;
  } catch {
    return null;
  }
}

export const twilioFiles: FileSupport<ReplyContext<TwilioSettings>> = {
  async fetchFile(ctx, ref, maxBytes, keep) {
    const { TWILIO_API_BASE_URL: api, TWILIO_ACCOUNT_SID: sid } = ctx.config;
    if (!ref.url || !servedFrom(ref.url, [api]) || mediaSid(ref.url)?.account !== ctx.tenant || !sid) return null;
    const authorization = basicAuthorization(sid, await ctx.token());
    return fetchCapped(ctx.fetch, ref.url, { Authorization: authorization }, { maxBytes, keep });
  },
};
