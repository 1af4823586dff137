/**
 * @module
 * A channel's own settings in the simulator: `/parley` typed in the Slack tab goes to the Worker as Slack's slash
 * command; its answer shows to whoever typed it; Alice (a workspace admin in the Slack fake) may change them, Bob
 * only read them; the inspector shows them, and a decision's score beside its reason.
 */
import { describe, expect, it } from "vitest";
import { hasChromium } from "./browser.ts";
import { ANSWER_TIMEOUT_MS } from "./simulator-page.ts";
import { simulatorSession } from "./simulator-session.ts";

describe.skipIf(!hasChromium())("/parley in the simulator", () => {
  const session = simulatorSession();

  it("lets Alice switch initiative on, refuses Bob, and shows the settings in the inspector", async () => {
    const { sim } = session;
    const settings = sim.page.locator('[data-testid="place-settings"]');
    await expect
      .poll(() => settings.textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toContain("initiative off (eagerness 50) · rescue off");
    await sim.say("alice", "/parley initiative on");
    await expect
      .poll(() => sim.botAnswers().last().textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toContain("Done. Initiative: on");
    expect(await sim.botAnswers().last().locator('[data-testid="only-you"]').textContent()).toBe("Only visible to you");
    await sim.say("bob", "/parley rescue on");
    await expect
      .poll(() => sim.botAnswers().last().textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toContain("Only a workspace or server admin");
    await expect
      .poll(() => settings.textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toContain("initiative on (eagerness 50) · rescue off");
    expect(session.consoleErrors).toEqual([]);
  });
});
