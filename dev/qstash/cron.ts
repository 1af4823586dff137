/**
 * @module
 * Cron expressions the way QStash reads them: five fields (minute hour day-of-month month day-of-week) with `*`,
 * lists, ranges, steps and month/day names, an optional `CRON_TZ=<IANA zone> ` prefix (UTC without it), and the
 * refusal texts of the cron parser QStash answers with (`Invalid cron expression …`). `nextAfter` gives the first
 * matching minute after a time, in that zone (summer time included).
 */

export class CronSyntaxError extends Error {
  override name = "CronSyntaxError";
}

interface Field {
  min: number;
  max: number;
  names?: string[];
}

const FIELDS: Field[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"] },
  { min: 0, max: 6, names: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] },
];
const MINUTE_MS = 60_000;
/** A cron that matches nothing within this many minutes (e.g. 30 February) is refused at the first look. */
const SEARCH_LIMIT_MINUTES = 5 * 366 * 24 * 60;

export interface Cron {
  zone: string;
  /** Allowed values per field, in the order of FIELDS. */
  sets: Set<number>[];
  /** Whether day-of-month and day-of-week were both restricted (then either matches, as in cron). */
  domStar: boolean;
  dowStar: boolean;
}

export function parseCron(text: string): Cron {
  let spec = text.trim();
  if (spec === "") throw new CronSyntaxError("empty spec string");
  let zone = "UTC";
  const prefix = /^(?:CRON_TZ|TZ)=(\S+)\s+/.exec(spec);
  if (prefix) {
    zone = prefix[1] ?? "UTC";
    if (!validZone(zone)) throw new CronSyntaxError(`provided bad location ${zone}: unknown time zone ${zone}`);
    spec = spec.slice(prefix[0].length);
  }
  const parts = spec.split(/\s+/);
  if (parts.length !== FIELDS.length) {
    throw new CronSyntaxError(`expected exactly 5 fields, found ${parts.length}: [${parts.join(" ")}]`);
  }
  const sets = parts.map((part, i) => parseField(part, FIELDS[i] as Field));
  // Day-of-week 7 is Sunday too.
  if (sets[4]?.delete(7)) sets[4].add(0);
  return { zone, sets, domStar: parts[2]?.startsWith("*") ?? false, dowStar: parts[4]?.startsWith("*") ?? false };
}

function parseField(text: string, field: Field): Set<number> {
  const values = new Set<number>();
  const max = field === FIELDS[4] ? 7 : field.max;
  for (const item of text.split(",")) {
    const [range = "", stepText] = item.split("/");
    const step = stepText === undefined ? 1 : parseNumber(stepText);
    if (step < 1) throw new CronSyntaxError(`step of range should be a positive number: ${item}`);
    let start: number;
    let end: number;
    if (range === "*" || range === "?") [start, end] = [field.min, field.max];
    else {
      const [from = "", to] = range.split("-");
      start = parseValue(from, field);
      end = to === undefined ? (stepText === undefined ? start : max) : parseValue(to, field);
    }
    if (start < field.min)
      throw new CronSyntaxError(`beginning of range (${start}) below minimum (${field.min}): ${item}`);
    if (end > max) throw new CronSyntaxError(`end of range (${end}) above maximum (${max}): ${item}`);
    if (start > end) throw new CronSyntaxError(`beginning of range (${start}) beyond end of range (${end}): ${item}`);
    for (let v = start; v <= end; v += step) values.add(v);
  }
  return values;
}

function parseValue(text: string, field: Field): number {
  const named = field.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + field.min;
  return parseNumber(text);
}

function parseNumber(text: string): number {
  if (!/^\d+$/.test(text)) {
    throw new CronSyntaxError(`failed to parse int from ${text}: strconv.Atoi: parsing "${text}": invalid syntax`);
  }
  return Number(text);
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of `time` in `zone`: [minute, hour, day of month, month (1–12), day of week (0 = Sun)]. */
function localFields(time: number, zone: string): number[] {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      minute: "numeric",
      hour: "numeric",
      day: "numeric",
      month: "numeric",
      weekday: "short",
    });
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(time).map((p) => [p.type, p.value]));
  const weekday = FIELDS[4]?.names?.indexOf(String(parts.weekday).toLowerCase()) ?? 0;
  return [Number(parts.minute), Number(parts.hour), Number(parts.day), Number(parts.month), weekday];
}

/** The first whole minute strictly after `time` that the cron matches; throws when none comes within 5 years. */
export function nextAfter(cron: Cron, time: number): number {
  let candidate = Math.floor(time / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
  for (let looked = 0; looked < SEARCH_LIMIT_MINUTES; ) {
    const [minute = 0, hour = 0, day = 0, month = 0, weekday = 0] = localFields(candidate, cron.zone);
    const [minutes, hours, days, months, weekdays] = cron.sets as [Set<number>, ...Set<number>[]];
    const dayMatches =
      cron.domStar || cron.dowStar
        ? days?.has(day) && weekdays?.has(weekday)
        : days?.has(day) || weekdays?.has(weekday);
    // A non-matching day or hour is skipped an hour at a time (to the next local :00), so summer time never skips
    // a match; else one minute.
    if (months?.has(month) && dayMatches && hours?.has(hour) && minutes.has(minute)) return candidate;
    const skip = months?.has(month) && dayMatches && hours?.has(hour) ? 1 : 60 - minute;
    candidate += skip * MINUTE_MS;
    looked += skip;
  }
  throw new CronSyntaxError("the expression matches no time within five years");
}
