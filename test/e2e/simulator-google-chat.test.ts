/**
 * @module
 * The simulator's Google Chat tab sends real Google Chat events through the Worker's route: a person's message is
 * written in the Google Chat fake, which posts Chat's signed event to /google-chat/events (in the space only a
 * message that @mentions the app; every message of a DM), and the tab shows what the fake received of the app, drawn
 * from Chat's text format (`*bold*`, `_italic_`, `` `code` ``, ```` ``` ```` blocks, a link's address shown): the
 * answer in the thread of the question in the space, and in the person's DM.
 */
import { describe, expect, it } from "vitest";
import { hasChromium } from "./browser.ts";
import { ANSWER_TIMEOUT_MS, drawn } from "./simulator-page.ts";
import { simulatorSession } from "./simulator-session.ts";

describe.skipIf(!hasChromium())("the simulator's Google Chat tab", () => {
  const session = simulatorSession();

  it("answers a mention in the space's thread and a DM, drawn as Google Chat draws its text", async () => {
    const { sim, stack } = session;
    await sim.selectTab("google-chat");
    await sim.pickPerson("alice");
    // Said in the space without a mention: Chat sends the app nothing, so nothing answers it.
    await sim.page.fill("#gchat-input", "lunch at noon?");
    await sim.page.press("#gchat-input", "Enter");
    await sim.page.fill("#gchat-input", "@Parley what is our rollback plan?");
    await sim.page.press("#gchat-input", "Enter");
    const answer = sim.botAnswers("#gchat-messages").first();
    await expect.poll(async () => (await drawn(answer)).blocks, { timeout: ANSWER_TIMEOUT_MS }).toHaveLength(2);
    await expect.poll(async () => (await drawn(answer)).text, { timeout: ANSWER_TIMEOUT_MS }).toContain("Carol");
    const shown = await drawn(answer);
    // Chat has no headings: the Worker sent the heading as a bold line, **bold** as Chat's *bold*.
    expect(shown.bold).toEqual(["Rollback plan", "Stop the deploy first"]);
    expect(shown.code).toEqual(["main"]);
    expect(shown.blocks[0]).toBe("git revert --no-edit HEAD && git push");
    expect(shown.text).toContain("the runbook (https://example.com/runbook)");
    expect(shown.text).not.toMatch(/\*\*|```|\|---|^#/);
    // The answer is a reply in the question's thread; the unmentioned message got none.
    expect(await answer.getAttribute("class")).toContain("in-thread");
    expect(await sim.botAnswers("#gchat-messages").count()).toBe(1);
    const received = (await (await fetch(`${stack.googleChatFakeUrl}/__deliveries`)).json()) as unknown[];
    expect(received).toHaveLength(1);

    await sim.page.click('#gchat-spots button[data-spot="dm"]');
    await expect.poll(() => sim.page.locator("#gchat-messages .message").count()).toBe(0);
    expect(await sim.page.locator("#gchat-title").textContent()).toBe("Alice ↔ Parley");
    await sim.page.fill("#gchat-input", "and the rollback plan again?");
    await sim.page.press("#gchat-input", "Enter");
    const inDm = sim.botAnswers("#gchat-messages").first();
    await expect.poll(async () => (await drawn(inDm)).bold, { timeout: ANSWER_TIMEOUT_MS }).toContain("Rollback plan");
    expect(await sim.page.locator("#place").textContent()).toMatch(/^google-chat\|SIMDMALICE\|SIMDMALICE\|$/);
    expect(session.consoleErrors).toEqual([]);
  });
});
