/**
 * @module
 * A wall-clock limit on one bench:chaos run (./run.ts). A run takes seconds; CI runs two in a row under one time
 * limit, and a run that hangs (a stand-in that never answers, a handle that keeps the process alive after the last
 * JSON line) would otherwise spend all of it and say nothing. Past the limit the watchdog prints one JSON line to
 * stderr naming the phase the run was in and how many QStash messages were still waiting, kills every process this
 * one started (workerd, redis-server) by its id and exits 1, in one synchronous step: the run's own flow, failing
 * as its stand-ins go, never gets to exit first with a stack trace (the in-process servers end with the process).
 */
import { execFileSync } from "node:child_process";

/** What a run does, in order: the phase names of the watchdog's line. */
type ChaosPhase = "stack_start" | "hostile_cases" | "sending" | "driving_time" | "checks" | "stopping";

/** How long it waits for the QStash stand-in's count of waiting messages. */
const DUE_READ_MS = 2_000;

interface WatchdogHooks {
  /** How many QStash messages are waiting (due now or later); null when nobody could tell. */
  jobsDue(): Promise<number | null>;
}

export interface Watchdog {
  /** The run is in `phase` from now on. */
  enter(phase: ChaosPhase): void;
  /** The stack, once started: what the watchdog asks when it fires. */
  hooks(hooks: WatchdogHooks): void;
}

const within = <T>(ms: number, promise: Promise<T>, fallback: T): Promise<T> =>
  Promise.race([promise.catch(() => fallback), new Promise<T>((r) => setTimeout(() => r(fallback), ms))]);

/** The ids of every process below `pid` (children first found, then theirs), from `pgrep -P` (Linux and macOS). */
function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there is no child
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

function killDescendants(): number {
  const pids = descendants(process.pid);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }
  return pids.length;
}

export function armWatchdog(limitMs: number, started = Date.now()): Watchdog {
  let phase: ChaosPhase = "stack_start";
  let hooks: WatchdogHooks | undefined;
  const fire = async () => {
    const jobsDue = hooks ? await within(DUE_READ_MS, hooks.jobsDue(), null) : null;
    const seconds = Math.round((Date.now() - started) / 1000);
    const line = { event: "chaos_watchdog", phase, seconds, limit_seconds: limitMs / 1000, jobs_due: jobsDue };
    process.stderr.write(`${JSON.stringify(line)}\n`);
    const killed = killDescendants();
    process.stderr.write(`${JSON.stringify({ event: "chaos_watchdog_killed", processes: killed })}\n`);
    process.exit(1);
  };
  setTimeout(() => void fire(), limitMs);
  return {
    enter(next) {
      phase = next;
    },
    hooks(next) {
      hooks = next;
    },
  };
}
