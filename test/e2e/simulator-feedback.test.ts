/**
 * @module
 * Feedback on answers in the simulator (issue #38 item 3): once a channel turned it on (`/parley feedback on`, typed
 * by its admin), the bot's answer carries Slack's own 👍 / 👎 (the `feedback_buttons` element the Worker sent, drawn
 * from its Block Kit), and a press sends Slack's block_actions payload for it: the presser alone sees the thanks.
 */
import { describe, expect, it } from "vitest";
import { hasChromium } from "./browser.ts";
import { ANSWER_TIMEOUT_MS } from "./simulator-page.ts";
import { simulatorSession } from "./simulator-session.ts";

describe.skipIf(!hasChromium())("feedback buttons in the simulator", () => {
  const session = simulatorSession();

  it("draws 👍 / 👎 under the answer where the channel turned feedback on; a press is thanked privately", async () => {
    const { sim } = session;
    await sim.pickPerson("alice");
    await sim.page.fill("#slack-input", "/parley feedback on");
    await sim.page.press("#slack-input", "Enter");
    await sim.page
      .locator("#slack-messages .message.bot", { hasText: "Feedback: on." })
      .waitFor({ timeout: ANSWER_TIMEOUT_MS });
    await sim.say("alice", "@Parley which tea goes with rain?");
    const answer = sim.page.locator("#slack-messages .message.bot", {
      has: sim.page.locator('[data-testid="block-button"]'),
    });
    const buttons = answer.locator('[data-testid="block-button"]');
    await expect.poll(() => buttons.allTextContents(), { timeout: ANSWER_TIMEOUT_MS }).toEqual(["👍", "👎"]);
    await sim.pickPerson("bob");
    await buttons.first().click();
    const thanks = sim.page.locator("#slack-messages .message.bot", { hasText: "Thanks — noted." });
    await thanks.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    expect(await thanks.locator('[data-testid="only-you"]').count()).toBe(1);
    await sim.pickPerson("alice");
    expect(await thanks.count()).toBe(0);
  });
});
