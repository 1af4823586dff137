/**
 * @module
 * The units of work of a catch-up (./step.ts) and the progress that makes each happen once: reading one page
 * of the place (newest first, back to the window's start or to the asker's own last message) and summarizing one
 * chunk of what was read (or, at the end, the chunks' notes into the answer). Each unit saves the progress
 * (lib/catch-up/progress.ts) before the next begins, so that a retried step finds what an earlier attempt did and
 * never asks the platform for a page or the model for a chunk again.
 */
import { shortenToTokens } from "../context/shorten.ts";
import type { CatchUpProgress, PageEnd, ReadMessage } from "./progress.ts";
import { capMessageText } from "../limits/message-length.ts";
import { CATCH_UP_OVERHEAD_TOKENS, catchUpLineTokens, type CatchUpRecord, NOTE_RECORD_TOKENS } from "./model.ts";
import type { JobScope } from "../jobs/scope.ts";

/** Get Channel Messages lists at most 100; Slack advises no more than 200. */
const PAGE_SIZE = 100;

/**
 * Reads the page that ends before `before` (the trigger, then the oldest message read) and returns the progress with
 * it: its messages (people who asked to be forgotten left out), and where the next page ends, or null when the window
 * is read (an empty page, the window's start, CATCHUP_MAX_MESSAGES, or with `toOwnLast` the asker's own last message,
 * after which it stops), or when a later page could not be read.
 */
export async function readPage(
  scope: JobScope,
  progress: CatchUpProgress,
  before: PageEnd,
  toOwnLast: boolean,
): Promise<CatchUpProgress> {
  const { rt, job, replier } = scope;
  const max = rt.settings.CATCHUP_MAX_MESSAGES;
  const limit = Math.min(PAGE_SIZE, max - progress.messages.length);
  const page = await replier.readHistory(job, {
    before,
    // A slash command and a digest's slot are no message of the place: the first page does not list them.
    triggerListed: progress.pages === 0 && job.reason !== "command" && job.reason !== "digest",
    since: progress.since,
    limit,
  });
  // A page that could not be read after others were (logged `history_unavailable`): the answer sums up those.
  if (page === undefined && progress.pages > 0) return { ...progress, before: null };
  if (page === undefined || "refused" in page) throw new CatchUpRefused(page ? page.refused : null);
  let listed = page.messages.filter((m) => m.id !== job.trigger.id && m.ts >= progress.since);
  const ownLast = toOwnLast ? listed.findLast((m) => m.author.id === job.trigger.authorId) : undefined;
  if (ownLast) listed = listed.filter((m) => m.ts > ownLast.ts);
  const kept = await rt.forgotten.withoutForgotten(job.key, listed);
  const read = kept.map(
    (m): ReadMessage => ({
      id: m.id,
      author: m.author.name,
      authorId: m.author.id,
      ...(m.author.isBot ? { bot: true as const } : {}),
      text: capMessageText(m.text, rt.settings.MAX_MESSAGE_CHARS),
      ts: m.ts,
    }),
  );
  const messages = [...progress.messages, ...read];
  const oldest = page.messages[0];
  const done = !oldest || ownLast !== undefined || oldest.ts <= progress.since || messages.length >= max;
  return { ...progress, pages: progress.pages + 1, messages, before: done ? null : { id: oldest.id, ts: oldest.ts } };
}

/** The platform refused the read (the scope or permission missing), or has no history to read (null). */
export class CatchUpRefused extends Error {
  readonly missing: string | null;
  constructor(missing: string | null) {
    super(`history refused: ${missing ?? "none to read"}`);
    this.missing = missing;
  }
}

/** The read messages oldest first, numbered from 1: the numbers the model cites and the links replace. */
export function numbered(progress: CatchUpProgress): { records: CatchUpRecord[]; ids: string[] } {
  const sorted = [...progress.messages].sort((a, b) => a.ts - b.ts);
  return {
    records: sorted.map((m, i) => ({
      ref: i + 1,
      author: m.author,
      ...(m.bot ? { bot: true as const } : {}),
      text: m.text,
    })),
    ids: sorted.map((m) => m.id),
  };
}

/**
 * The records cut into chunks that each fit one model call within `budgetTokens` (a record too long alone gets its
 * own).
 */
export function chunksOf(records: CatchUpRecord[], budgetTokens: number): CatchUpRecord[][] {
  const room = Math.max(1, budgetTokens - CATCH_UP_OVERHEAD_TOKENS);
  const chunks: CatchUpRecord[][] = [];
  let current: CatchUpRecord[] = [];
  let used = 0;
  for (const record of records) {
    const cost = catchUpLineTokens(record);
    if (current.length > 0 && used + cost > room) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push(record);
    used += cost;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * The next model call of a summary read as `chunks`, with `notes` the chunks summarized so far: the one chunk, the
 * next chunk to note, or (`last`) every chunk's notes combined into the answer.
 */
export function nextCall(
  chunks: CatchUpRecord[][],
  notes: string[],
  budgetTokens: number,
): { input: { messages: CatchUpRecord[] } | { notes: string[] }; last: boolean } {
  const last = chunks.length === 1 || notes.length === chunks.length;
  if (chunks.length === 1) return { input: { messages: chunks[0]! }, last };
  return { input: last ? { notes: notesWithin(notes, budgetTokens) } : { messages: chunks[notes.length]! }, last };
}

/** The notes shortened evenly so that all of them fit one call within `budgetTokens`. */
function notesWithin(notes: string[], budgetTokens: number): string[] {
  const room = budgetTokens - CATCH_UP_OVERHEAD_TOKENS - notes.length * NOTE_RECORD_TOKENS;
  const share = Math.max(1, Math.floor(room / Math.max(1, notes.length)));
  return notes.map((note) => shortenToTokens(note, share));
}
