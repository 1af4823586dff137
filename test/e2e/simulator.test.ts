/**
 * @module
 * The simulator page in a real browser against the stack `npm run dev` starts: people talk in the Slack-like
 * channel, the bot answers where Slack would show it, and the decision panel says why it spoke or kept quiet.
 */
import { mkdirSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { CHROMIUM_PATH, hasChromium, startBrowser, type RunningBrowser } from "./browser.ts";
import { startStack, type RunningStack } from "./stack.ts";

const ARTIFACTS = "test-artifacts";
/** Generous: a job goes through the QStash stand-in, the Worker, the local model and the Slack fake. */
const ANSWER_TIMEOUT_MS = 20_000;
const SLACK_PLACE = "slack|T0SIMTEAM|C0SIMGENERAL|";

if (!hasChromium()) console.warn(`browser tests skipped: ${CHROMIUM_PATH} is missing (apt-get install -y chromium)`);

describe.skipIf(!hasChromium())("the simulator page", () => {
  let stack: RunningStack;
  let browser: RunningBrowser;
  let page: Page;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(), startBrowser()]);
    page = await browser.context.newPage();
    await page.goto(stack.simulatorUrl);
    await page.locator('#person-picker button[data-person="alice"]').waitFor();
  });

  // What the stack printed (the Worker's decision and job lines) is what explains a failure here.
  afterEach(({ task }) => {
    if (task.result?.state === "fail") console.error(`--- npm run dev output ---\n${stack?.output().slice(-6_000)}`);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const botAnswers = () => page.locator("#slack-messages .message.bot");
  const decision = (author: string, respond: string) =>
    page.locator(`#decisions [data-testid="decision"][data-respond="${respond}"]`).filter({ hasText: author });

  async function say(person: string, text: string): Promise<void> {
    await page.click(`#person-picker button[data-person="${person}"]`);
    await page.fill("#slack-input", text);
    await page.press("#slack-input", "Enter");
    await page.locator("#slack-messages .message", { hasText: text }).waitFor();
  }

  it("shows the bot's answer in the channel when someone mentions it", async () => {
    await say("alice", "@Parley what is the capital of France?");
    await expect.poll(() => botAnswers().count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(1);
    expect(await botAnswers().first().textContent()).toContain("capital of France");
    await expect.poll(() => decision("Alice", "yes").getAttribute("data-reason"), { timeout: ANSWER_TIMEOUT_MS }).toBe("direct_mention");
  });

  it("answers a second person's follow-up and shows why, with the prompt that went to the model", async () => {
    await say("bob", "Parley, and what about Germany?");
    await expect.poll(() => botAnswers().count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(2);
    expect(await botAnswers().nth(1).textContent()).toContain("what about Germany");
    await expect.poll(() => decision("Bob", "yes").getAttribute("data-reason"), { timeout: ANSWER_TIMEOUT_MS }).toBe("name_exact");
    await expect.poll(() => page.locator('[data-testid="prompt"]').count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(2);
    expect(await page.locator('[data-testid="participants"]').textContent()).toMatch(/Alice.*Bob/);
    expect(await page.locator('[data-testid="prompt-tokens"]').first().textContent()).toMatch(/^\d+ tokens$/);
  });

  it("keeps quiet while two people talk to each other, and shows the 'no' decisions", async () => {
    await say("carol", "@Bob are you coming to lunch?");
    await say("bob", "@Carol yes, see you at noon");
    await expect.poll(() => page.locator('#decisions [data-respond="no"]').count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(2);
    for (const author of ["Carol", "Bob"]) {
      expect(await decision(author, "no").first().getAttribute("data-reason")).toBe("addressed_other");
    }
    // A wrong "yes" would have queued a job by now; give it the time an answer takes, then check none came.
    await page.waitForTimeout(2_000);
    expect(await botAnswers().count()).toBe(2);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.locator('[data-testid="prompt"] summary').first().click();
    await page.screenshot({ path: `${ARTIFACTS}/simulator.png` });
  });

  it("serves the same state through the admin route, only with the admin token", async () => {
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
