/**
 * @module
 * What a message keeps of a file someone pasted: a reference, never the bytes. The platform's id or URL to fetch it
 * by (only ever fetched by a reply job, with the platform's credentials: lib/platforms/file-fetch.ts), and what the
 * platform told about it (type, size, dimensions, name). What a file is for the prompt (`fileKind`) follows from
 * the type and the name; the bytes are checked again when fetched (./image-info.ts).
 */
import * as z from "../zod.ts";

/** The most files one message keeps references to; the rest are named by count only (lib/jobs/attachments.ts). */
export const MAX_FILES_PER_MESSAGE = 10;

const dimension = z.optional(z.number().check(z.int(), z.gte(1), z.lte(100_000)));

export const fileRefSchema = z.object({
  /** The platform's file id (Slack F…, Discord attachment id, Twilio media URL, Telegram file_id). */
  id: z.string().check(z.minLength(1), z.maxLength(512)),
  /** Where the platform serves it, when the platform gives a URL (fetched only from the platform's own hosts). */
  url: z.optional(z.string().check(z.maxLength(2_048))),
  name: z.string().check(z.maxLength(256)),
  /** The MIME type the platform reports ("" when it gave none). */
  type: z.string().check(z.maxLength(128)),
  size: z.optional(z.number().check(z.int(), z.gte(0))),
  width: dimension,
  height: dimension,
  /** Text whatever its type says (a Slack snippet). */
  snippet: z.optional(z.boolean()),
});
export type FileRef = z.output<typeof fileRefSchema>;

/**
 * The references a platform's parser made that the store will read back: at most MAX_FILES_PER_MESSAGE, each
 * within the schema (a name, URL or dimension past its bounds would make the stored conversation unreadable).
 */
export function storableRefs(refs: readonly FileRef[]): FileRef[] {
  return refs.filter((ref) => fileRefSchema.safeParse(ref).success).slice(0, MAX_FILES_PER_MESSAGE);
}

/** `image`: sent to the model as a picture; `text`: read into the data block; `other`: named only. */
export type FileKind = "image" | "text" | "other";

/** The image types the model API accepts (OpenAI: PNG, JPEG, WEBP, non-animated GIF). */
const IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);
const TEXT_EXTENSIONS = new Set(
  (
    "txt md markdown log csv tsv json jsonl yaml yml toml ini xml html css js mjs cjs ts tsx jsx py rb go rs java kt " +
    "c h cc cpp hpp cs php sh bash zsh sql swift scala lua r pl ex exs erl hs clj diff patch"
  ).split(" "),
);
/** Files whose newest lines matter most: cut from the start, keeping the end. */
const LOG_EXTENSIONS = new Set(["log"]);

function extension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
}

export function fileKind(ref: FileRef): FileKind {
  const type = ref.type.toLowerCase().split(";")[0]!.trim();
  if (IMAGE_TYPES.has(type)) return "image";
  if (
    ref.snippet ||
    type.startsWith("text/") ||
    type === "application/json" ||
    TEXT_EXTENSIONS.has(extension(ref.name))
  )
    return "text";
  return "other";
}

/** A log keeps its end when cut; any other text its start. */
export function isLog(ref: FileRef): boolean {
  return LOG_EXTENSIONS.has(extension(ref.name)) || ref.type.toLowerCase().includes("log");
}

/** The line a file stands as where it is not shown: `[image: shot.png, 1280×720, from Bob]`. */
export function fileLine(ref: FileRef, from: string): string {
  const kind = fileKind(ref);
  const label = kind === "image" ? "image" : kind === "text" ? "text file" : "file";
  const size = ref.width && ref.height ? `, ${ref.width}×${ref.height}` : "";
  return `[${label}: ${ref.name || "unnamed"}${size}, from ${from}]`;
}
