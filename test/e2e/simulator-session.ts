/**
 * @module
 * One stack and one browser page for a describe block of browser tests: started before its tests, stopped after
 * them; a failing test gets what `npm run dev` printed (the Worker's decision and job lines explain most failures).
 * The page's console errors are collected, so a test can check there were none.
 */
import { afterAll, afterEach, beforeAll } from "vitest";
import { startBrowser, type RunningBrowser } from "./browser.ts";
import { simulatorPage, type SimulatorPage } from "./simulator-page.ts";
import { startStack, type RunningStack, type StackOptions } from "./stack.ts";

/** How much of the stack's output a failure shows. */
const FAILURE_OUTPUT_CHARS = 6_000;

export interface SimulatorSession {
  readonly stack: RunningStack;
  readonly sim: SimulatorPage;
  /** Every console error the page logged so far. */
  readonly consoleErrors: string[];
}

export function simulatorSession(opts: StackOptions = {}): SimulatorSession {
  let stack: RunningStack | undefined;
  let browser: RunningBrowser | undefined;
  let sim: SimulatorPage | undefined;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(opts), startBrowser()]);
    const page = await browser.context.newPage();
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(error.message));
    await page.goto(stack.simulatorUrl);
    await page.locator('#person-picker button[data-person="alice"]').waitFor();
    sim = simulatorPage(page);
  });

  afterEach(({ task }) => {
    if (task.result?.state === "fail")
      console.error(`--- npm run dev output ---\n${stack?.output().slice(-FAILURE_OUTPUT_CHARS)}`);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the simulator session has not started (beforeAll failed?)");
    return value;
  };
  return {
    get stack() {
      return started(stack);
    },
    get sim() {
      return started(sim);
    },
    consoleErrors,
  };
}
