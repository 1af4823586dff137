/**
 * @module
 * `npm run dev` as a newcomer meets it, twice at once: two stacks with different ports (the Worker's, the
 * inspector's, every stand-in's) run side by side, and each terminal shows the start-up table with the admin token
 * and the Slack workspaces it installed, then one readable line per decision and per answer, without wrangler's noise;
 * a Ctrl-C in the terminal (SIGINT to the whole process group) stops everything without a stack trace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWER_TIMEOUT_MS } from "./simulator-page.ts";
import { startStack, type RunningStack } from "./stack.ts";

/** What a newcomer must not meet: an offline stack's Request.cf stack trace, the cron warning, request lines. */
const NOISE = [
  /Request\.cf/,
  /getaddrinfo/,
  /Scheduled Workers are not automatically triggered/,
  /\[wrangler:info\]/,
  /GET \/admin\/conversations/,
];

describe("npm run dev in a terminal", () => {
  let stacks: RunningStack[] = [];

  beforeAll(async () => {
    const started = await Promise.allSettled([startStack(), startStack({ terminal: true })]);
    stacks = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    const failed = started.find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
  });

  afterAll(async () => {
    await Promise.all(stacks.map((stack) => stack.stop()));
  });

  it("runs two stacks with different ports side by side", async () => {
    const [one, two] = stacks as [RunningStack, RunningStack];
    expect(one.workerUrl).not.toBe(two.workerUrl);
    for (const stack of stacks) {
      const health = await fetch(`${stack.workerUrl}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: "ok", redis: "ok" });
    }
  });

  it("prints the admin token, then a readable line for each decision and answer, and no noise", async () => {
    const stack = stacks[0]!;
    await expect.poll(() => stack.output()).toContain(`Admin token       ${stack.adminToken}`);
    expect(stack.output()).toContain(
      "Slack workspaces  Acme (T0ACME), Globex (T0GLOBEX), installed through /slack/install",
    );
    const sent = await fetch(`${stack.simulatorUrl}/api/send`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ platform: "slack", person: "alice", text: "@Parley are you there?" }),
    });
    expect(sent.status).toBe(200);
    await expect
      .poll(() => stack.output(), { timeout: ANSWER_TIMEOUT_MS })
      .toMatch(/slack\s+answered\s+message C0SIMGENERAL:/);
    const output = stack.output();
    expect(output).toMatch(/slack\s+yes · direct_mention\s+message C0SIMGENERAL:\S+ from U0SIMALICE/);
    for (const noise of NOISE) expect(output).not.toMatch(noise);
    // No raw JSON log line of the Worker's: those are for `npm run dev -- --json`.
    expect(output).not.toMatch(/^\{"event":"decision"/m);
  });

  it("stops quietly on Ctrl-C: nothing is left running and nothing prints a stack trace", async () => {
    const stack = stacks[1]!;
    const before = stack.output().length;
    await stack.stop();
    const after = stack.output().slice(before);
    expect(after).not.toMatch(/ECONNREFUSED|\[ioredis\]|\n\s+at /);
    await expect(fetch(`${stack.workerUrl}/health`)).rejects.toThrow();
  });
});
