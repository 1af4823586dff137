/**
 * @module
 * `/parley digest …` read into a plan: `daily 09:00 [zone]`, `weekly fri 16:00 [zone]`, `off` or `status`, and a
 * plan as the cron QStash schedules it (`CRON_TZ=<zone> m h * * d`). Pure: a bad time, weekday or zone is a problem
 * to show the person, and nothing is scheduled. The zone is an IANA name as the runtime knows it (UTC when none is
 * given), stored in its canonical spelling ("europe/berlin" → "Europe/Berlin"), which QStash's parser requires.
 */
import * as z from "../zod.ts";

const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
const DEFAULT_ZONE = "UTC";
const DAY_MS = 86_400_000;

export const digestPlanSchema = z.object({
  period: z.enum(["daily", "weekly"]),
  /** 0 = Sunday, as cron counts; weekly digests only. */
  weekday: z.optional(z.number().check(z.int(), z.gte(0), z.lte(6))),
  hour: z.number().check(z.int(), z.gte(0), z.lte(23)),
  minute: z.number().check(z.int(), z.gte(0), z.lte(59)),
  zone: z.string().check(z.minLength(1), z.maxLength(64)),
});
export type DigestPlan = z.output<typeof digestPlanSchema>;

export type DigestCommand =
  | { kind: "schedule"; plan: DigestPlan }
  | { kind: "off" }
  | { kind: "status" }
  | { kind: "problem"; problem: string };
/** `digest me …`: the same words for the person's own digest, a DM (lib/digests/personal-command.ts). */
export type DigestRequest = DigestCommand | { kind: "me"; command: DigestCommand };

export const DIGEST_USAGE =
  "digest [me] daily HH:MM [zone] · digest [me] weekly mon-sun HH:MM [zone] · digest [me] off|status";

/** The digest command its words (after `digest`) ask for. */
export function parseDigestCommand(words: readonly string[]): DigestRequest {
  if (words[0]?.toLowerCase() === "me") return { kind: "me", command: parsePlaceDigest(words.slice(1)) };
  return parsePlaceDigest(words);
}

function parsePlaceDigest(words: readonly string[]): DigestCommand {
  const [verb = "", ...rest] = words;
  const lower = rest.map((w) => w.toLowerCase());
  const period = verb.toLowerCase();
  if ((period === "off" || period === "status") && rest.length === 0) return { kind: period };
  if (period === "daily") return planOf("daily", undefined, rest);
  if (period === "weekly") {
    const [day = ""] = lower;
    const more = rest.slice(1);
    const weekday = WEEKDAYS.indexOf(day.slice(0, 3) as (typeof WEEKDAYS)[number]);
    if (weekday < 0 || !WEEKDAY_NAMES[weekday]?.toLowerCase().startsWith(day))
      return { kind: "problem", problem: `"${day}" is not a weekday (mon, tue, … sun)` };
    return planOf("weekly", weekday, more);
  }
  return { kind: "problem", problem: "a digest is daily or weekly, or off, or status" };
}

function planOf(period: DigestPlan["period"], weekday: number | undefined, rest: string[]): DigestCommand {
  const [time = "", zoneWord, ...extra] = rest;
  if (extra.length > 0) return { kind: "problem", problem: "too many words" };
  const hm = /^(\d{1,2}):(\d{2})$/.exec(time);
  const hour = Number(hm?.[1]);
  const minute = Number(hm?.[2]);
  if (!hm || hour > 23 || minute > 59)
    return { kind: "problem", problem: `"${time}" is not a time of day (HH:MM, 00:00 to 23:59)` };
  const zone = zoneWord === undefined ? DEFAULT_ZONE : canonicalZone(zoneWord);
  if (zone === null) return { kind: "problem", problem: `"${zoneWord}" is not a time zone (e.g. Europe/Berlin)` };
  return { kind: "schedule", plan: { period, ...(weekday === undefined ? {} : { weekday }), hour, minute, zone } };
}

/** The zone's canonical IANA name, or null when the runtime knows no such zone. */
function canonicalZone(word: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(word)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: word }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The plan as QStash's cron: minute, hour, any day of the month, any month, the weekday (or any). */
export function cronOf(plan: DigestPlan): string {
  return `CRON_TZ=${plan.zone} ${plan.minute} ${plan.hour} * * ${plan.weekday ?? "*"}`;
}

/** How far back a digest reads at most: its period. */
export function periodMs(plan: DigestPlan): number {
  return plan.period === "daily" ? DAY_MS : 7 * DAY_MS;
}

/** The plan in words, as `status` and the digest's heading show it. */
export function describePlan(plan: DigestPlan): string {
  const at = `${String(plan.hour).padStart(2, "0")}:${String(plan.minute).padStart(2, "0")} (${plan.zone})`;
  return plan.weekday === undefined ? `daily at ${at}` : `weekly on ${WEEKDAY_NAMES[plan.weekday]} at ${at}`;
}
