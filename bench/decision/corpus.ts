/**
 * @module
 * Reads the irc-replies logs (one JSON object per line, see ./README.md), one log at a time so the 27 MB train split
 * never sits in memory whole; a `.gz` file (the dev split that ships with the bench) is unpacked as it is read.
 * Times become epoch milliseconds.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { z } from "zod";

const LogLineSchema = z.object({
  i: z.number().int(),
  time: z.string().optional(),
  author: z.string().optional(),
  text: z.string().optional(),
  system: z.string().optional(),
  action: z.boolean().optional(),
});

const LogSchema = z.object({
  source: z.string(),
  split: z.string().optional(),
  messages: z.array(LogLineSchema),
  links: z.array(z.tuple([z.number().int(), z.number().int()])),
});

export interface ChatLine {
  i: number;
  ts: number;
  author: string;
  text: string;
}

export interface ChatLog {
  source: string;
  /** Chat lines in log order; system lines dropped. */
  lines: ChatLine[];
  /** Gold parents of each line (self links, which start a conversation, left out). */
  parents: Map<number, number[]>;
}

const MINUTE_MS = 60_000;
/** Several lines in one minute keep their order a second apart, never spilling into the next minute. */
const SAME_MINUTE_STEP_MS = 1_000;
const MAX_IN_MINUTE_MS = 59_000;
const SOURCE_DATE = /^(\d{4}-\d{2}-\d{2})/;

function minuteOfDay(time: string): number {
  const [h, m] = time.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

export function parseLog(json: unknown): ChatLog {
  const log = LogSchema.parse(json);
  const date = SOURCE_DATE.exec(log.source)?.[1] ?? "1970-01-01";
  const midnight = Date.parse(`${date}T00:00:00Z`);
  const lines: ChatLine[] = [];
  let dayOffset = 0;
  let prevMinute = -1;
  let inMinute = 0;
  for (const m of log.messages) {
    if (m.system !== undefined || m.time === undefined || m.author === undefined) continue;
    let minute = minuteOfDay(m.time) + dayOffset * 24 * 60;
    // A log can run past midnight: a clock that jumps back by hours means the next day.
    if (prevMinute >= 0 && minute < prevMinute - 12 * 60) {
      dayOffset++;
      minute += 24 * 60;
    }
    minute = Math.max(minute, prevMinute);
    inMinute = minute === prevMinute ? inMinute + 1 : 0;
    prevMinute = minute;
    const ts = midnight + minute * MINUTE_MS + Math.min(inMinute * SAME_MINUTE_STEP_MS, MAX_IN_MINUTE_MS);
    lines.push({ i: m.i, ts, author: m.author, text: m.text ?? "" });
  }
  const parents = new Map<number, number[]>();
  for (const [parent, child] of log.links) {
    if (parent === child) continue;
    const list = parents.get(child) ?? [];
    list.push(parent);
    parents.set(child, list);
  }
  return { source: log.source, lines, parents };
}

/** Streams the logs of a JSONL file, one parsed log at a time. */
export async function* readLogs(path: string): AsyncGenerator<ChatLog> {
  const file = createReadStream(path);
  const text = path.endsWith(".gz") ? file.pipe(createGunzip()) : file;
  const input = createInterface({ input: text.setEncoding("utf8"), crlfDelay: Infinity });
  for await (const line of input) {
    if (line.trim().length > 0) yield parseLog(JSON.parse(line));
  }
}
