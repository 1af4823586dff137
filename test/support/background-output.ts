/**
 * @module
 * A vitest reporter that holds back what runs beside the tests prints in vitest's own process: the stand-ins' JSON
 * log lines (the global setup's QStash stand-in and Redis bridge, through lib/log.ts) and workerd's own messages
 * (uncaught exceptions, refused connections of the fault tests, through @cloudflare/vitest-plugin). A passing run
 * prints none of it; after a failing run it prints what came out while each failed test ran, so a failure keeps
 * its evidence. The tests' own console output is vitest's `silent: "passed-only"` (vitest.config.ts).
 */
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason } from "vitest/node";

/** Where a write comes from, found in its call stack: workerd's messages, or a log line of lib/log.ts. */
const BACKGROUND_WRITERS = ["handleStructuredLogs", "/lib/log.ts:"];
/** Deep enough to reach lib/log.ts through console.log's own frames. */
const STACK_DEPTH = 30;
/** Output can trail the test a little (workerd's messages come over a pipe, test results in batches). */
const MARGIN_MS = 1_000;
/** Kept at most, oldest dropped: a long run must not hold every line in memory. */
const MAX_HELD_LINES = 50_000;

interface HeldLine {
  at: number;
  text: string;
}

interface FailureWindow {
  name: string;
  from: number;
  to: number;
}

type Write = typeof process.stdout.write;

export default class BackgroundOutputReporter implements Reporter {
  readonly #held: HeldLine[] = [];
  readonly #started = new Map<string, number>();
  readonly #failed: FailureWindow[] = [];
  readonly #restore: (() => void)[] = [];
  #write: (text: string) => void = (text) => void process.stderr.write(text);

  onInit(): void {
    const stderrWrite = process.stderr.write.bind(process.stderr) as (text: string) => boolean;
    this.#write = (text) => void stderrWrite(text);
    for (const stream of [process.stdout, process.stderr]) {
      const original = stream.write;
      const hold = (chunk: unknown) => {
        this.#held.push({ at: Date.now(), text: String(chunk) });
        if (this.#held.length > MAX_HELD_LINES) this.#held.shift();
        return true;
      };
      stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
        if (fromBackground()) return hold(chunk);
        return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
      } as Write;
      this.#restore.push(() => (stream.write = original));
    }
  }

  onTestModuleStart(module: TestModule): void {
    this.#started.set(module.id, Date.now());
  }

  onTestCaseReady(test: TestCase): void {
    this.#started.set(test.id, Date.now());
  }

  onTestCaseResult(test: TestCase): void {
    if (test.result().state === "failed") this.#failedNow(test.id, `${test.module.moduleId} > ${test.fullName}`);
  }

  /** A file can fail with no failed test (a beforeAll that threw): then the whole file's time is the window. */
  onTestModuleEnd(module: TestModule): void {
    if (module.state() === "failed" && [...module.children.allTests("failed")].length === 0)
      this.#failedNow(module.id, module.moduleId);
  }

  #failedNow(id: string, name: string): void {
    const from = (this.#started.get(id) ?? Date.now()) - MARGIN_MS;
    this.#failed.push({ name, from, to: Date.now() + MARGIN_MS });
  }

  onTestRunEnd(
    _modules: ReadonlyArray<TestModule>,
    errors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): void {
    for (const restore of this.#restore) restore();
    if (reason === "passed") return;
    for (const test of this.#failed) {
      const lines = this.#held.filter((line) => line.at >= test.from && line.at <= test.to);
      if (lines.length > 0) this.#print(`stand-ins and workerd while ${test.name} ran`, lines);
    }
    // A run can fail without a failed test (an error outside any test): then everything held may be the clue.
    if (this.#failed.length === 0 && errors.length > 0 && this.#held.length > 0)
      this.#print("stand-ins and workerd during the run", this.#held);
  }

  #print(title: string, lines: HeldLine[]): void {
    this.#write(`\n--- ${title} ---\n${lines.map((line) => line.text).join("")}`);
  }
}

function fromBackground(): boolean {
  const depth = Error.stackTraceLimit;
  Error.stackTraceLimit = STACK_DEPTH;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = depth;
  return BACKGROUND_WRITERS.some((writer) => stack.includes(writer));
}
