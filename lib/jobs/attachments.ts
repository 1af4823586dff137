/**
 * @module
 * The files of an answer's turn, read when its prompt is built (never in the webhook): the pictures of the messages
 * being answered (the current one and the same person's unanswered ones before it) go to the model as images, at
 * most IMAGES_PER_TURN of at most IMAGE_MAX_BYTES, checked from their bytes; their text files go into the data block,
 * TEXT_FILE_MAX_BYTES of each; any other file, and every file of an older message, stays a short line in its
 * message's text (`[image: shot.png, 1280×720, from Bob]`), so a conversation of twenty screenshots sends only the
 * newest. The pictures of the message the conversation is about (a thread's parent) go too when they are what the
 * question is about: the messages answered bring none, and the bot has not answered in the conversation yet.
 * Bytes and contents stay in this job's memory: logged are counts, sizes and times, never what a file holds.
 */

import { bytesToBase64 } from "../base64.ts";
import type { FileRecord } from "../context/data-block.ts";
import type { PromptImage } from "../context/images.ts";
import type { Turn } from "../conversation/turn.ts";
import { type FileRef, fileKind, fileLine, isLog } from "../files/file-ref.ts";
import { imageInfo } from "../files/image-info.ts";
import { imageTokens } from "../files/image-tokens.ts";
import { readTextFile } from "../files/text-file.ts";
import type { StoredMessage } from "../message.ts";
import type { JobScope } from "./scope.ts";

export interface TurnFiles {
  history: StoredMessage[];
  current: StoredMessage;
  images: PromptImage[];
  files: FileRecord[];
}

/** What became of one file of the messages being answered: its line in the message, and what the prompt gets. */
interface ReadFile {
  line: string;
  image?: PromptImage;
  text?: FileRecord;
  bytes: number;
}

export async function turnFiles(scope: JobScope, turn: Turn): Promise<TurnFiles> {
  const answered = answeredMessages(turn);
  const hasFiles = (m: StoredMessage) => Boolean(m.files?.length);
  if (!turn.history.some(hasFiles) && !hasFiles(turn.current))
    return { history: turn.history, current: turn.current, images: [], files: [] };
  const started = scope.rt.now();
  let imageSlots = scope.rt.settings.IMAGES_PER_TURN;
  // Slots are handed out in order, oldest message first, before any fetch: the same turn always sends the same images.
  const plans = new Map(
    answered.map((m) => [
      m.id,
      (m.files ?? []).map((ref) => ({ ref, image: fileKind(ref) === "image" && imageSlots-- > 0 })),
    ]),
  );
  const read = new Map(
    await Promise.all(
      answered.map(
        async (m) =>
          [m.id, await Promise.all(plans.get(m.id)!.map((p) => readFile(scope, m, p.ref, p.image)))] as const,
      ),
    ),
  );
  const withLines = (m: StoredMessage): StoredMessage => {
    const lines = read.get(m.id)?.map((r) => r.line) ?? (m.files ?? []).map((ref) => fileLine(ref, m.authorName));
    return lines.length ? { ...m, text: [m.text, ...lines].filter(Boolean).join("\n") } : m;
  };
  const all = [...read.values()].flat();
  const images = all.flatMap((r) => (r.image ? [r.image] : []));
  const files = all.flatMap((r) => (r.text ? [r.text] : []));
  scope.rt.log.info("files_read", {
    ...scope.where,
    images: images.length,
    textFiles: files.length,
    named: all.length - images.length - files.length,
    bytes: all.reduce((sum, r) => sum + r.bytes, 0),
    ms: scope.rt.now() - started,
  });
  return { history: turn.history.map(withLines), current: withLines(turn.current), images, files };
}

/**
 * The parent message with its files' lines, and its pictures when they are what the question is about (see the
 * module's comment), in the slots `pasted` left.
 */
export async function parentFiles(
  scope: JobScope,
  parent: StoredMessage,
  turn: Turn,
  pasted: TurnFiles,
): Promise<{ parent: StoredMessage; images: PromptImage[] }> {
  if (!parent.files?.length) return { parent, images: [] };
  const asked = pasted.images.length === 0 && !turn.history.some((m) => m.role === "assistant");
  let slots = asked ? scope.rt.settings.IMAGES_PER_TURN : 0;
  const named = (ref: FileRef): ReadFile => ({ line: fileLine(ref, parent.authorName), bytes: 0 });
  const read = await Promise.all(
    parent.files.map((ref) =>
      fileKind(ref) === "image" && slots-- > 0 ? readFile(scope, parent, ref, true) : named(ref),
    ),
  );
  const images = read.flatMap((r) => (r.image ? [r.image] : []));
  if (images.length)
    scope.rt.log.info("parent_files_read", {
      ...scope.where,
      images: images.length,
      bytes: read.reduce((sum, r) => sum + r.bytes, 0),
    });
  return { parent: { ...parent, text: [parent.text, ...read.map((r) => r.line)].filter(Boolean).join("\n") }, images };
}

/** The current message and its author's messages since the bot last spoke: what this answer is for. */
function answeredMessages(turn: Turn): StoredMessage[] {
  const since: StoredMessage[] = [];
  for (let i = turn.history.length - 1; i >= 0; i--) {
    const m = turn.history[i]!;
    if (m.role === "assistant" || m.authorId !== turn.current.authorId) break;
    since.unshift(m);
  }
  return [...since, turn.current];
}

async function readFile(scope: JobScope, message: StoredMessage, ref: FileRef, asImage: boolean): Promise<ReadFile> {
  const s = scope.rt.settings;
  const named = (why?: string): ReadFile => ({
    line: why ? `${fileLine(ref, message.authorName)} (${why})` : fileLine(ref, message.authorName),
    bytes: 0,
  });
  const kind = fileKind(ref);
  if (kind === "image" && !asImage)
    return named(s.IMAGES_PER_TURN > 0 ? "not shown: too many images in one message" : undefined);
  if (
    kind === "other" ||
    (kind === "image" && s.IMAGE_MAX_BYTES === 0) ||
    (kind === "text" && s.TEXT_FILE_MAX_BYTES === 0)
  )
    return named();
  if (kind === "image" && ref.size !== undefined && ref.size > s.IMAGE_MAX_BYTES) return named("too large to show");
  const log = kind === "text" && isLog(ref);
  const limit = kind === "image" ? s.IMAGE_MAX_BYTES : s.TEXT_FILE_MAX_BYTES;
  let fetched: Awaited<ReturnType<JobScope["replier"]["fetchFile"]>>;
  try {
    fetched = await scope.replier.fetchFile(scope.job, ref, limit, log ? "end" : "start");
  } catch (err) {
    scope.rt.log.warn("file_unread", {
      ...scope.where,
      file: ref.id,
      kind,
      error: err instanceof Error ? err.name : "unknown",
    });
    return named("could not be read");
  }
  if (!fetched) {
    scope.rt.log.warn("file_unread", { ...scope.where, file: ref.id, kind, error: "refused" });
    return named("could not be read");
  }
  if (kind === "text") {
    const text = readTextFile(fetched.bytes, limit, log, fetched.totalBytes);
    if (!text) return { ...named("not text"), bytes: fetched.bytes.length };
    const record: FileRecord = {
      file: { name: ref.name, from: message.authorName, ...(log ? { log: true as const } : {}), text: text.text },
    };
    return {
      line: `${fileLine(ref, message.authorName)} (its text is in the data block)`,
      text: record,
      bytes: fetched.bytes.length,
    };
  }
  if (fetched.totalBytes > limit) return { ...named("too large to show"), bytes: fetched.bytes.length };
  const info = imageInfo(fetched.bytes);
  if (!info) return { ...named("not a picture the model can read"), bytes: fetched.bytes.length };
  const shown: FileRef = { ...ref, width: info.width, height: info.height };
  return {
    line: `${fileLine(shown, message.authorName)} (attached)`,
    image: {
      dataUrl: `data:${info.type};base64,${bytesToBase64(fetched.bytes)}`,
      tokens: imageTokens(info.width, info.height),
    },
    bytes: fetched.bytes.length,
  };
}
