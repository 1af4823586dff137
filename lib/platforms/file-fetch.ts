/**
 * @module
 * The optional capability a platform adds to fetch the files people paste (`PlatformAdapter.files`): the bytes of
 * one stored reference (lib/files/file-ref.ts), fetched in a reply job with the platform's credentials, never in the
 * webhook. A URL is fetched only from the hosts the platform serves its files from, so a forged reference can never
 * carry a token elsewhere; the body is read only up to the job's limit.
 */
import type { FileRef } from "../files/file-ref.ts";

/** Which end of a file too large to read whole is kept: its start, or its end (a log). */
export type KeepEnd = "start" | "end";

/** What was read of a file: up to the limit, with the file's whole size as the platform gave it. */
export interface FetchedFile {
  bytes: Uint8Array;
  /** The bytes the file holds (the Content-Length, or what was read): more than `bytes` when it was cut. */
  totalBytes: number;
}

/** `Ctx`: the job's ReplyContext for the platform (lib/platforms/adapter.ts, which this file does not import). */
export interface FileSupport<Ctx> {
  /**
   * Up to `maxBytes` of the file `ref` names, kept from `keep`; null when it is gone, refused or not the
   * platform's (logged by the caller, never retried: the answer goes without it).
   */
  fetchFile(ctx: Ctx, ref: FileRef, maxBytes: number, keep: KeepEnd): Promise<FetchedFile | null>;
}

/** A platform that can fetch files adds this to its adapter. */
export interface WithFiles<Ctx> {
  readonly files?: FileSupport<Ctx>;
}

const FILE_TIMEOUT_MS = 10_000;
/**
 * A file kept from its end (a log) is read through to this many bytes at most, its end kept; longer, it is named only.
 */
const MAX_READ_THROUGH_BYTES = 20 * 1024 * 1024;

/** True when `url` is on one of `origins` (scheme, host and port alike). */
export function servedFrom(url: string, origins: readonly string[]): boolean {
  try {
    const origin = new URL(url).origin;
    return origins.some((allowed) => new URL(allowed).origin === origin);
  } catch {
    return false;
  }
}

/**
 * GETs `url` with `headers` and reads at most `maxBytes` of it (from the start, or the last ones); null on any
 * status but 200 (a refused token, a file gone). `redirect: "manual"` where a redirect means refusal (Slack sends a
 * request it will not serve to its sign-in page, whose HTML must never be read as the file); Twilio's media
 * redirects to its CDN and is followed.
 */
export async function fetchCapped(
  doFetch: typeof fetch,
  url: string,
  headers: Record<string, string>,
  limits: { maxBytes: number; keep: KeepEnd; redirect?: "manual" | "follow" },
): Promise<FetchedFile | null> {
  const { maxBytes, keep } = limits;
  const response = await doFetch(url, {
    headers,
    redirect: limits.redirect ?? "follow",
    signal: AbortSignal.timeout(FILE_TIMEOUT_MS),
  });
  if (response.status !== 200 || !response.body) {
    await response.body?.cancel();
    return null;
  }
  const declared = Number(response.headers.get("Content-Length"));
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let held = 0;
  let read = 0;
  let stopped = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.length;
    chunks.push(value);
    held += value.length;
    // Past the limit, not at it: a file of exactly `maxBytes` is whole.
    if (keep === "start" && held > maxBytes) {
      await reader.cancel();
      stopped = true;
      break;
    }
    if (read > MAX_READ_THROUGH_BYTES) {
      await reader.cancel();
      return null;
    }
    // Keeping the end: drop whole chunks from the front while the rest still holds `maxBytes`.
    while (keep === "end" && chunks.length > 1 && held - chunks[0]!.length >= maxBytes) held -= chunks.shift()!.length;
  }
  const all = new Uint8Array(held);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  const bytes =
    all.length <= maxBytes ? all : keep === "start" ? all.subarray(0, maxBytes) : all.subarray(all.length - maxBytes);
  // Stopped past the limit without a Content-Length: the file is known only to be larger than what was kept.
  const total = Math.max(read, Number.isFinite(declared) ? declared : 0, stopped ? maxBytes + 1 : 0);
  return { bytes, totalBytes: total };
}
