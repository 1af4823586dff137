/**
 * @module
 * The stand-in's clock: everything it schedules (delays, Not-Before, retries, Retry-After, the deduplication
 * window, createdAt) is in this clock's time. `real` is the wall clock; `virtual` starts at the wall-clock time and
 * only moves when a test advances it (POST /__clock/advance); `scaled` runs `factor` times faster than the wall
 * clock, so a soak sees the production schedule compressed. Signatures, delivery timeouts and leases stay in
 * wall-clock time: the Worker checks the signature against its own clock, and an HTTP call takes real time.
 */
import { z } from "zod";

export type ClockSetting = { mode: "real" } | { mode: "virtual" } | { mode: "scaled"; factor: number };

export interface QStashClock {
  readonly setting: ClockSetting;
  now(): number;
}

export class VirtualClock implements QStashClock {
  readonly setting = { mode: "virtual" } as const;
  #now: number;

  constructor(start = Date.now()) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** Moves the clock forward to `time`; the clock never goes back. */
  moveTo(time: number): void {
    if (time > this.#now) this.#now = time;
  }
}

export function createClock(setting: ClockSetting): QStashClock {
  if (setting.mode === "virtual") return new VirtualClock();
  if (setting.mode === "real") return { setting, now: () => Date.now() };
  const origin = Date.now();
  return { setting, now: () => origin + (Date.now() - origin) * setting.factor };
}

const clockSettingSchema = z
  .string()
  .regex(/^(real|virtual|scaled:\d+(\.\d+)?)$/, {
    error: 'must be "real", "virtual" or "scaled:<factor>" (e.g. scaled:60 runs the schedule 60 times faster)',
  })
  .transform((text): ClockSetting => {
    if (text === "real" || text === "virtual") return { mode: text };
    return { mode: "scaled", factor: Number(text.slice("scaled:".length)) };
  })
  .refine((s) => s.mode !== "scaled" || s.factor > 0, { error: "the scaled clock's factor must be above 0" });

/** QSTASH_CLOCK for `npm run dev` and the standalone stand-in; the wall clock when unset. */
export function clockSettingFromEnv(env: Record<string, string | undefined>): ClockSetting {
  const text = env.QSTASH_CLOCK;
  if (text === undefined || text === "") return { mode: "real" };
  const parsed = clockSettingSchema.safeParse(text);
  if (!parsed.success) throw new Error(`QSTASH_CLOCK ${parsed.error.issues[0]?.message ?? "is not valid"}`);
  return parsed.data;
}
