/**
 * @module
 * A natural three-person conversation in the simulator, worded as people write (no "Parley, …" on every line), with
 * the decision badge under every message checked: the bot answers the question put to it and a second person's
 * follow-up, keeps out of a lunch plan between two people, answers its name again, and goes quiet on "not you".
 */
import { describe, expect, it } from "vitest";
import { hasChromium } from "./browser.ts";
import { ANSWER_TIMEOUT_MS } from "./simulator-page.ts";
import { simulatorSession } from "./simulator-session.ts";

describe.skipIf(!hasChromium())("the simulator's decision badges in a three-person conversation", () => {
  const session = simulatorSession();

  it("shows why the bot spoke or kept quiet under every message", async () => {
    const { sim } = session;
    const badge = (text: string) =>
      sim.page
        .locator("#slack-messages .message", { hasText: text })
        .first()
        .locator('[data-testid="decision-badge"]')
        .textContent();
    const conversation: [person: string, text: string, badge: string, answers: number][] = [
      ["alice", "@Parley should I learn Rust or Go first for backend work?", "yes · direct_mention", 1],
      ["bob", "and is it worth it if I already know Go?", "yes · continuation", 2],
      ["alice", "Carol, are you coming to lunch today?", "no · addressed_other", 2],
      ["carol", "yes! 12:30 at the usual place?", "no · no_trigger", 2],
      ["alice", "perfect, I'll book a table for three", "no · no_trigger", 2],
      ["bob", "Parley, which of the two has the better tooling?", "yes · name_exact", 3],
      ["carol", "I wasn't talking to you, Parley", "no · not_you", 3],
      ["carol", "and is the tooling better for a small team?", "no · told_not_you", 3],
    ];
    for (const [person, text, expected, answers] of conversation) {
      await sim.say(person, text);
      await expect.poll(() => badge(text), { timeout: ANSWER_TIMEOUT_MS }).toBe(expected);
      // The next message comes once the bot's answer (if any) is in: as it would in a real channel.
      await expect.poll(() => sim.botAnswers().count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(answers);
    }
    expect(session.consoleErrors).toEqual([]);
  });
});
