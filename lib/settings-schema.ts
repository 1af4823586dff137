/**
 * @module
 * What every settings schema is made of (the core's in ./config.ts, each platform's beside its adapter), and how
 * one is read: setting by setting, so that a bad one is named (never its value) and, unless it is essential, turns
 * off only its own feature. An essential setting that is missing or malformed stops what needs it: the Worker for
 * the core's, the platform for a platform's.
 */
import * as z from "./zod.ts";

export const text = z.string().check(z.trim(), z.minLength(1));
export const optionalText = z.pipe(
  z.optional(z.string().check(z.trim())),
  z.transform((v) => (v ? v : undefined)),
);
export const url = z.pipe(
  z.pipe(text, z.url({ protocol: /^https?$/ })),
  z.transform((v) => v.replace(/\/+$/, "")),
);
export const seconds = (fallback: number) => z._default(z.coerce.number().check(z.int(), z.positive()), fallback);
const FLAG_WORDS = ["true", "false", "1", "0", "yes", "no", "on", "off", ""] as const;
const isOn = (v: boolean | string) => v === true || v === "true" || v === "1" || v === "yes" || v === "on";
export const flag = (fallback: boolean) =>
  z.pipe(
    z._default(z.union([z.boolean(), z.enum(FLAG_WORDS)]), fallback),
    z.transform((v) => isOn(v)),
  );
/** A flag with no default: undefined (unset or empty) lets the caller decide. */
export const optionalFlag = z.pipe(
  z.optional(z.union([z.boolean(), z.enum(FLAG_WORDS)])),
  z.transform((v) => (v === undefined || v === "" ? undefined : isOn(v))),
);
export const list = z.pipe(
  z._default(z.string(), ""),
  z.transform((v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  ),
);

/** A setting that could not be used, in words that never carry its value. */
export interface SettingProblem {
  name: string;
  problem: string;
}

export interface SettingsRead<T> {
  settings: T;
  /** Essential settings missing or malformed: what needs them cannot run. */
  essential: SettingProblem[];
  /** Other settings that were malformed: each is read as off (a flag) or as its default, and said so. */
  ignored: SettingProblem[];
}

type Shape = Record<string, z.ZodMiniType>;
type Output<S extends Shape> = { [K in keyof S]: z.output<S[K]> };

/**
 * Reads `shape`'s settings from `env`, one at a time. A malformed setting outside `essential` falls back to what
 * `off` names for it (a feature's switch: off), or else to what an unset one gives (its default, or none).
 */
export function readSettings<S extends Shape>(
  shape: S,
  env: Record<string, unknown>,
  rules: { essential: readonly (keyof S & string)[]; off?: Partial<Output<S>> },
): SettingsRead<Output<S>> {
  const settings: Record<string, unknown> = {};
  const essential: SettingProblem[] = [];
  const ignored: SettingProblem[] = [];
  for (const [name, schema] of Object.entries(shape)) {
    const parsed = schema.safeParse(env[name]);
    if (parsed.success) {
      settings[name] = parsed.data;
      continue;
    }
    const missing = env[name] === undefined || env[name] === "";
    // `NAME=` means unset: a setting with a default (or none needed) takes it without a word.
    const unset = env[name] === "" ? schema.safeParse(undefined) : undefined;
    if (unset?.success) {
      settings[name] = unset.data;
      continue;
    }
    const problem = {
      name,
      problem: missing ? "is not set" : `is malformed (${parsed.error.issues[0]?.message.toLowerCase() ?? "invalid"})`,
    };
    if (rules.essential.includes(name)) {
      essential.push(problem);
      continue;
    }
    ignored.push(problem);
    const off = rules.off && name in rules.off ? rules.off[name] : undefined;
    settings[name] = off !== undefined ? off : schema.safeParse(undefined).data;
  }
  return { settings: settings as Output<S>, essential, ignored };
}
