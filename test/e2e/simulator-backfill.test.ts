/**
 * @module
 * The room the bot is called into, in the simulator (issue #25): Alice and Bob discuss a failed deploy in #general
 * without the bot, then Carol mentions it. The first answer saw their talk (the local model counts the people's
 * messages before the one it answers), and the inspector's prompt shows it marked as said before the bot was
 * called; the same in Discord's #general, whose messages come over the Gateway.
 */
import { describe, expect, it } from "vitest";
import { hasChromium } from "./browser.ts";
import { ANSWER_TIMEOUT_MS } from "./simulator-page.ts";
import { simulatorSession } from "./simulator-session.ts";

const ALICE = "the migrations step timed out on the orders table lock";
const BOB = "an analytics query held it, roll back to 4.12 or kill the query?";
const CAROL = "@Parley what do you think, should we roll back?";

/** The people's records of a prompt as the inspector shows it (lib/context/turns.ts), oldest first. */
const records = (prompt: string) =>
  prompt
    .split("\n")
    .filter((line) => line.startsWith('{"author"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe.skipIf(!hasChromium())("the simulator: the talk before the bot was called", () => {
  const session = simulatorSession();

  it("in Slack's #general: Carol's answer saw Alice's and Bob's talk, and the prompt marks it", async () => {
    const { sim } = session;
    await sim.say("alice", ALICE);
    await sim.say("bob", BOB);
    await sim.say("carol", CAROL);
    await expect.poll(() => sim.botAnswers().count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(1);
    await expect
      .poll(() => sim.botAnswers().first().textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toContain("2 earlier messages from Alice and Bob");
    await expect.poll(async () => (await sim.inspector()).prompts.length, { timeout: ANSWER_TIMEOUT_MS }).toBe(1);
    const [prompt] = (await sim.inspector()).prompts;
    expect(prompt).toContain("before_you_were_called");
    expect(records(prompt!).slice(0, 2)).toEqual([
      { author: "Alice", text: ALICE, before_you_were_called: true },
      { author: "Bob", text: BOB, before_you_were_called: true },
    ]);
  });

  it("in Discord's #general the same", async () => {
    const { sim } = session;
    await sim.selectTab("discord");
    await sim.sayOnDiscord("alice", `${ALICE} (discord)`);
    await sim.sayOnDiscord("bob", `${BOB} (discord)`);
    await sim.sayOnDiscord("carol", CAROL);
    await expect.poll(() => sim.botAnswers("#discord-messages").count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(1);
    await expect.poll(async () => (await sim.inspector()).prompts.length, { timeout: ANSWER_TIMEOUT_MS }).toBe(1);
    const [prompt] = (await sim.inspector()).prompts;
    expect(records(prompt!).slice(0, 2)).toEqual([
      { author: "Alice", text: `${ALICE} (discord)`, before_you_were_called: true },
      { author: "Bob", text: `${BOB} (discord)`, before_you_were_called: true },
    ]);
  });
});
