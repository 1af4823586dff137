/**
 * @module
 * The simulator page in a real browser against the stack `npm run dev` starts: people talk in the Slack-like
 * channel, the bot answers where Slack would show it, and the decision panel says why it spoke or kept quiet.
 */
import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHROMIUM_PATH, hasChromium } from "./browser.ts";
import { ANSWER_TIMEOUT_MS, SLACK_PLACE } from "./simulator-page.ts";
import { simulatorSession } from "./simulator-session.ts";

const ARTIFACTS = "test-artifacts";

if (!hasChromium()) console.warn(`browser tests skipped: ${CHROMIUM_PATH} is missing (apt-get install -y chromium)`);

describe.skipIf(!hasChromium())("the simulator page", () => {
  const session = simulatorSession();

  it("shows the bot's answer in the channel when someone mentions it", async () => {
    const { sim } = session;
    await sim.say("alice", "@Parley what is the capital of France?");
    await expect.poll(() => sim.botAnswers().count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(1);
    // Streamed: the answer grows in place until it is whole.
    await expect
      .poll(() => sim.botAnswers().first().textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toContain("capital of France");
    await expect
      .poll(() => sim.decision("Alice", "yes").getAttribute("data-reason"), { timeout: ANSWER_TIMEOUT_MS })
      .toBe("direct_mention");
  });

  it("answers a second person's follow-up and shows why, with the prompt that went to the model", async () => {
    const { sim } = session;
    await sim.say("bob", "Parley, and what about Germany?");
    await expect.poll(() => sim.botAnswers().count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(2);
    // The local model quotes the message it answers, and counts the people's messages before it, not its own.
    await expect
      .poll(() => sim.botAnswers().nth(1).textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toContain("1 earlier message from Alice and 1 of my answers");
    expect(await sim.botAnswers().nth(1).textContent()).toContain('You said: "Parley, and what about Germany?"');
    await expect
      .poll(() => sim.decision("Bob", "yes").getAttribute("data-reason"), { timeout: ANSWER_TIMEOUT_MS })
      .toBe("name_exact");
    await expect.poll(() => sim.page.locator('[data-testid="prompt"]').count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(2);
    expect(await sim.page.locator('[data-testid="participants"]').textContent()).toMatch(/Alice.*Bob/);
    expect(await sim.page.locator('[data-testid="prompt-tokens"]').first().textContent()).toMatch(/^\d+ tokens$/);
  });

  it("keeps quiet while two people talk to each other, and shows the 'no' decisions", async () => {
    const { sim } = session;
    await sim.say("carol", "@Bob are you coming to lunch?");
    await sim.say("bob", "@Carol yes, see you at noon");
    await expect
      .poll(() => sim.page.locator('#decisions [data-respond="no"]').count(), { timeout: ANSWER_TIMEOUT_MS })
      .toBe(2);
    for (const author of ["Carol", "Bob"]) {
      expect(await sim.decision(author, "no").first().getAttribute("data-reason")).toBe("addressed_other");
    }
    // A wrong "yes" would have queued a job by now; give it the time an answer takes, then check none came.
    await sim.page.waitForTimeout(2_000);
    expect(await sim.botAnswers().count()).toBe(2);
    mkdirSync(ARTIFACTS, { recursive: true });
    await sim.page.locator('[data-testid="prompt"] summary').first().click();
    await sim.page.screenshot({ path: `${ARTIFACTS}/simulator.png` });
  });

  it("serves the same state through the admin route, only with the admin token", async () => {
    const { stack } = session;
    const url = `${stack.workerUrl}/admin/conversations/${encodeURIComponent(SLACK_PLACE)}`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { Authorization: "Bearer wrong-token" } })).status).toBe(401);
    const res = await fetch(url, { headers: { Authorization: `Bearer ${stack.adminToken}` } });
    expect(res.status).toBe(200);
    const view = (await res.json()) as {
      conversation: { participants: { name: string }[]; expiresInSeconds: number };
      answers: { reason: string; promptTokens: number; messages: { content: string }[] }[];
    };
    expect(view.conversation.participants.map((p) => p.name)).toEqual(["Alice", "Bob", "Carol"]);
    expect(view.conversation.expiresInSeconds).toBeGreaterThan(0);
    expect(view.answers.map((a) => a.reason)).toEqual(["name_exact", "direct_mention"]);
    expect(view.answers[0]!.promptTokens).toBeGreaterThan(0);
    expect(JSON.stringify(view.answers[0]!.messages)).toContain("capital of France");
  });
});
