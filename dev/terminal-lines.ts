/**
 * @module
 * What `npm run dev` prints after its start-up table: one readable line per decision and per answer of the Worker,
 * per step of a confirm tool's approval (asked, each reaction to it, its end), and one per warning or error that the
 * Worker or a stand-in logs; with `--json`, those log lines as they are.
 * wrangler's banner, its bindings table, its request lines (the simulator page polls the admin view all the time)
 * and blank lines are left out; any other line of wrangler's is shown as it is.
 */
import { stripVTControlCharacters } from "node:util";
import { PLATFORMS } from "../lib/message.ts";

export type OutputMode = "readable" | "json";

const WRANGLER_NOISE = [
  /^\s*$/,
  /^\s*⛅️ wrangler /,
  /^─+$/,
  /^Using (secrets|vars) defined in /,
  /^Your Worker has access to the following bindings:/,
  /^Binding\s+Resource\s+Mode/,
  /^env\.\S+ /,
  /^⎔ /,
  /^\[wrangler:info\] /,
];

type LogEvent = Record<string, unknown> & { event: string; level?: unknown };

/** The line to print for one line of output, or null to leave it out. */
export function terminalLine(line: string, mode: OutputMode, now = new Date()): string | null {
  const json = logLineJson(line);
  const event = json === null ? null : parseEvent(json);
  if (!event) return WRANGLER_NOISE.some((noise) => noise.test(line)) ? null : line;
  if (mode === "json") return json;
  return readable(event, now);
}

/**
 * The JSON log line inside one line of wrangler's output: as it is on stdout (console.log), after wrangler's
 * coloured "▲ [WARNING]" or "✘ [ERROR]" on stderr (console.warn, console.error). Null when there is none.
 */
export function logLineJson(line: string): string | null {
  const text = stripVTControlCharacters(line).trim();
  const start = text.indexOf("{");
  return start >= 0 && text.endsWith("}") && parseEvent(text.slice(start)) ? text.slice(start) : null;
}

function parseEvent(text: string): LogEvent | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && typeof (value as LogEvent).event === "string"
      ? (value as LogEvent)
      : null;
  } catch {
    return null;
  }
}

/** The longest platform name and two spaces. */
const PLATFORM_WIDTH = Math.max(...PLATFORMS.map((p) => p.length)) + 2;
const VERDICT_WIDTH = 26;

function readable(e: LogEvent, now: Date): string | null {
  const time = now.toTimeString().slice(0, 8);
  const where = String(e.platform ?? "").padEnd(PLATFORM_WIDTH);
  if (e.event === "decision") {
    return `${time}  ${where}${`${String(e.respond)} · ${String(e.reason)}`.padEnd(VERDICT_WIDTH)}message ${String(e.message)} from ${String(e.author)}`;
  }
  if (e.event === "reply_posted") {
    const parts = Number(e.parts) > 1 ? `${String(e.parts)} parts, ` : "";
    return `${time}  ${where}${"answered".padEnd(VERDICT_WIDTH)}message ${String(e.trigger)} (${parts}prompt ${String(e.prompt_tokens)} tokens)`;
  }
  const approval = approvalLine(e);
  if (approval !== null) return `${time}  ${where}${approval}`;
  // An answer already had its reply_posted line; any other end of a job says why nothing was posted.
  if (e.event === "job_ended" && e.outcome !== "answered") {
    return `${time}  ${where}${`no answer · ${String(e.outcome)}`.padEnd(VERDICT_WIDTH)}message ${String(e.trigger)}`;
  }
  if (e.level === "warn" || e.level === "error") {
    const { event, level, ...fields } = e;
    const details = Object.entries(fields).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
    return `${time}  ${String(level)}: ${event}  ${details.join(" ")}`;
  }
  return null;
}

/** A confirm tool's approval step (docs/tools.md): asked, a ✅ or ❌ on it (one that decided nothing says so), ended. */
function approvalLine(e: LogEvent): string | null {
  const mark = e.verdict === "deny" ? "❌" : "✅";
  // A column as wide as the verdicts', with a space after a longer one.
  const column = (text: string) => `${text.padEnd(VERDICT_WIDTH - 1)} `;
  if (e.event === "approval_opened")
    return `${column(`approval asked · ${String(e.tool)}`)}question ${String(e.question)} for message ${String(e.trigger)}`;
  if (e.event === "approval_reaction")
    return `${column(e.decided ? `${mark} ${String(e.state)}` : `${mark} ignored · ${String(e.state)}`)}question ${String(e.message)}${e.decided ? "" : " (only the asker's, in time, decides)"}`;
  if (e.event === "approval_ended") return `${column(`approval · ${String(e.outcome)}`)}message ${String(e.trigger)}`;
  return null;
}

/**
 * The stand-ins run in the launcher's process and log through `console`: their JSON lines take the same way as the
 * Worker's (info lines are left out of the readable output, warnings and errors shown); other output is untouched.
 */
export function routeConsoleLogLines(mode: OutputMode): void {
  for (const method of ["log", "info", "warn", "error"] as const) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      if (args.length !== 1 || typeof args[0] !== "string" || !logLineJson(args[0])) return original(...args);
      const line = terminalLine(args[0], mode);
      if (line !== null) original(line);
    };
  }
}
