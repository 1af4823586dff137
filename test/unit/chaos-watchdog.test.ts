import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const WATCHDOG = join(import.meta.dirname, "../../bench/chaos/watchdog.ts");

/**
 * A run that hangs: it starts a child that would live a minute, enters "driving_time", and then waits on a stack
 * whose stop never ends. The watchdog's limit is 300 ms.
 */
const HANGING_RUN = `
import { spawn } from "node:child_process";
import { armWatchdog } from ${JSON.stringify(WATCHDOG)};
const child = spawn("sleep", ["60"], { stdio: "ignore" });
process.stdout.write(String(child.pid) + "\\n");
const watchdog = armWatchdog(300);
watchdog.hooks({ jobsDue: async () => 3, stop: () => new Promise(() => {}) });
watchdog.enter("driving_time");
setInterval(() => {}, 1000);
`;

/** Running: a killed child whose parent is gone may stay a zombie (state Z) where nobody reaps orphans. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8") : "";
  return !/^\d+ \(.*\) Z/.test(stat);
}

describe("the bench:chaos watchdog", () => {
  it("a run past its limit says which phase it hung in and how much was due, kills its children and exits 1", async () => {
    const run = spawn(process.execPath, ["--input-type=module", "-e", HANGING_RUN], { stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    run.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    run.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => run.once("exit", resolve));

    expect(code).toBe(1);
    const lines = stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ event: "chaos_watchdog", phase: "driving_time", jobs_due: 3 });
    expect(lines[1]).toMatchObject({ event: "chaos_watchdog_killed", processes: 1 });
    const child = Number(stdout.trim());
    await expect.poll(() => alive(child)).toBe(false);
  }, 20_000);
});
