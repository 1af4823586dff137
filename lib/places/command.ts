/**
 * @module
 * `/parley`, the same on every platform that has it: `initiative on|off`, `eagerness 0-100`, `rescue on|off
 * [minutes]`, `feedback on|off`, `status`, `forget`, and `digest …` (read by lib/digests/plan.ts, run by
 * lib/digests/command.ts), read from the command's words, then run against the place's settings (./settings.ts).
 * Anyone may read them; only someone the platform says may manage the place changes them (`mayChange`, asked only
 * for a change, and only once the words are understood). The answers are short, for only the person who used the
 * command to see.
 */
import { type DigestRequest, DIGEST_USAGE, parseDigestCommand } from "../digests/plan.ts";
import type { ConversationKey } from "../message.ts";
import {
  EAGERNESS_MAX,
  EAGERNESS_MIN,
  RESCUE_MINUTES_MAX,
  RESCUE_MINUTES_MIN,
  type PlaceSettings,
  type PlaceSettingsStore,
} from "./settings.ts";

export const PARLEY_COMMAND = "parley";

export type PlaceCommand =
  | { kind: "change"; change: Partial<PlaceSettings> }
  | { kind: "status" }
  | { kind: "forget" }
  | { kind: "digest"; digest: DigestRequest }
  | { kind: "help"; problem?: string };

export const PLACE_COMMAND_USAGE =
  `Usage: /${PARLEY_COMMAND} initiative on|off · eagerness ` +
  `${EAGERNESS_MIN}-${EAGERNESS_MAX} · rescue on|off [minutes] · feedback on|off · status · forget · ${DIGEST_USAGE}`;

const SWITCH: Readonly<Record<string, boolean>> = { on: true, off: false };

/** The command its words ask for; `help` (with what was wrong) for anything else. */
export function parsePlaceCommand(text: string): PlaceCommand {
  const [verb = "", value, ...rest] = text.trim().toLowerCase().split(/\s+/u).filter(Boolean);
  if (verb === "rescue") return parseRescue(value, rest);
  // The zone keeps its letters' case for the person's error message; the plan canonicalizes it.
  if (verb === "digest") return { kind: "digest", digest: parseDigestCommand(text.trim().split(/\s+/u).slice(1)) };
  if (rest.length > 0) return { kind: "help", problem: "too many words" };
  switch (verb) {
    case "status":
    case "forget":
      return value === undefined ? { kind: verb } : { kind: "help", problem: `${verb} takes no value` };
    case "initiative":
    case "feedback": {
      const on = value === undefined ? undefined : SWITCH[value];
      return on === undefined
        ? { kind: "help", problem: `${verb} is on or off` }
        : { kind: "change", change: { [verb]: on } };
    }
    case "eagerness": {
      const n = wholeIn(value, EAGERNESS_MIN, EAGERNESS_MAX);
      if (n === null)
        return { kind: "help", problem: `eagerness is a whole number from ${EAGERNESS_MIN} to ${EAGERNESS_MAX}` };
      return { kind: "change", change: { eagerness: n } };
    }
    default:
      return { kind: "help" };
  }
}

const wholeIn = (value: string | undefined, min: number, max: number): number | null => {
  const n = value !== undefined && /^\d{1,3}$/u.test(value) ? Number(value) : NaN;
  return n >= min && n <= max ? n : null;
};

/** `rescue on [minutes]` or `rescue off`. */
function parseRescue(value: string | undefined, rest: string[]): PlaceCommand {
  const on = value === undefined ? undefined : SWITCH[value];
  if (on === undefined || rest.length > (on ? 1 : 0))
    return { kind: "help", problem: "rescue is on (optionally with the minutes to wait) or off" };
  if (!on || rest.length === 0) return { kind: "change", change: { rescue: on } };
  const minutes = wholeIn(rest[0], RESCUE_MINUTES_MIN, RESCUE_MINUTES_MAX);
  if (minutes === null)
    return { kind: "help", problem: `rescue waits ${RESCUE_MINUTES_MIN} to ${RESCUE_MINUTES_MAX} minutes` };
  return { kind: "change", change: { rescue: true, rescueMinutes: minutes } };
}

/** The settings in words, as `status` shows them. */
function describePlaceSettings(s: PlaceSettings, defaultRescueMinutes: number): string {
  const rescue = s.rescue ? `on (after ${s.rescueMinutes ?? defaultRescueMinutes} minutes)` : "off";
  const onOff = (on: boolean) => (on ? "on" : "off");
  const initiative = `Initiative: ${onOff(s.initiative)} (eagerness ${s.eagerness})`;
  return `${initiative}. Rescue: ${rescue}. Feedback: ${onOff(s.feedback)}.`;
}

const NOT_ALLOWED = "Only a workspace or server admin, or whoever may manage this channel, can change these settings.";

/**
 * What may happen for a command other than `forget` (the platform does that its own way) and `digest` (a schedule);
 * the answer's text.
 */
export async function runPlaceCommand(
  settings: PlaceSettingsStore,
  place: ConversationKey,
  command: Exclude<PlaceCommand, { kind: "forget" | "digest" }>,
  mayChange: () => Promise<boolean>,
  defaultRescueMinutes: number,
): Promise<{ text: string; changed: boolean }> {
  const describe = (s: PlaceSettings) => describePlaceSettings(s, defaultRescueMinutes);
  switch (command.kind) {
    case "help":
      return {
        text: command.problem ? `${command.problem}. ${PLACE_COMMAND_USAGE}` : PLACE_COMMAND_USAGE,
        changed: false,
      };
    case "status":
      return { text: describe(await settings.read(place)), changed: false };
    case "change": {
      if (!(await mayChange()))
        return { text: `${NOT_ALLOWED} ${describe(await settings.read(place))}`, changed: false };
      return { text: `Done. ${describe(await settings.update(place, command.change))}`, changed: true };
    }
  }
}
