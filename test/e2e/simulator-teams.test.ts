/**
 * @module
 * The simulator's Teams tab sends real Bot Connector activities through the Worker's route: a person's message is
 * written in the Teams fake, whose Connector posts the activity with its signed token to /teams/messages (in the
 * channel and the group chat only a message that @mentions the bot; every message of a 1:1 chat), and the tab shows
 * the bot's messages as the fake holds them, drawn from Teams' Markdown: the answer in the reply chain of the post in
 * the channel, in the group chat, and in the person's 1:1 chat, where it came through Teams' own stream.
 */
import { describe, expect, it } from "vitest";
import { hasChromium } from "./browser.ts";
import { ANSWER_TIMEOUT_MS, drawn } from "./simulator-page.ts";
import { simulatorSession } from "./simulator-session.ts";

describe.skipIf(!hasChromium())("the simulator's Teams tab", () => {
  const session = simulatorSession();

  it("answers a mention in the channel's reply chain, in the group chat and in a 1:1 chat, drawn as Teams draws it", async () => {
    const { sim } = session;
    await sim.selectTab("teams");
    // Posted in the channel without a mention: Teams sends the bot nothing, so nothing answers it.
    await sim.sayOnTeams("alice", "lunch at noon?");
    await sim.sayOnTeams("alice", "@Parley what is our rollback plan?");
    const answer = sim.botAnswers("#teams-messages").first();
    await expect.poll(async () => (await drawn(answer)).text, { timeout: ANSWER_TIMEOUT_MS }).toContain("Carol");
    const shown = await drawn(answer);
    // Teams draws no headings in a text message: the Worker sent the heading as a bold line.
    expect(shown.bold).toContain("Rollback plan");
    expect(shown.blocks[0]).toBe("git revert --no-edit HEAD && git push");
    expect(shown.text).not.toMatch(/\*\*|```|^#/);
    expect(await answer.getAttribute("class")).toContain("in-thread");
    expect(await sim.botAnswers("#teams-messages").count()).toBe(1);
    expect(await sim.page.locator("#place").textContent()).toMatch(/^teams\|[^|]+\|19:[^|]+@thread\.tacv2\|\d+$/);

    await sim.page.click('#teams-spots button[data-spot="group"]');
    await expect.poll(() => sim.page.locator("#teams-messages .message").count()).toBe(0);
    await sim.sayOnTeams("alice", "@Parley and the rollback plan for the database?");
    const inGroup = sim.botAnswers("#teams-messages").first();
    await expect
      .poll(async () => (await drawn(inGroup)).bold, { timeout: ANSWER_TIMEOUT_MS })
      .toContain("Rollback plan");

    await sim.page.click('#teams-spots button[data-spot="dm"]');
    expect(await sim.page.locator("#teams-title").textContent()).toBe("Alice ↔ Parley");
    await sim.sayOnTeams("alice", "the rollback plan once more?");
    const inChat = sim.botAnswers("#teams-messages").first();
    await expect.poll(async () => (await drawn(inChat)).text, { timeout: ANSWER_TIMEOUT_MS }).toContain("Carol");
    expect(await sim.page.locator("#place").textContent()).toMatch(/^teams\|[^|]+\|a:[^|]+\|$/);
    expect(session.consoleErrors).toEqual([]);
  });
});
