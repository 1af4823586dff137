/**
 * @module
 * The simulator page draws each answer as its platform's client would, from what the Worker sent it (issue #44):
 * the local model's answer in Markdown (dev/local-model/formatted-answer.ts) arrives as Slack's markdown_text, as
 * Discord's Markdown, as Telegram's HTML (read into entities by the Telegram fake) and as a plain SMS, and each tab
 * shows it with that platform's bold, lists, code, tables and links. The Telegram tab's group topics and private
 * chat, and the bot's working sign on the message it answers, show too.
 */
import { describe, expect, it } from "vitest";
import { hasChromium } from "./browser.ts";
import { ANSWER_TIMEOUT_MS, drawn } from "./simulator-page.ts";
import { simulatorSession } from "./simulator-session.ts";

const ASK = "@Parley what is our rollback plan?";

describe.skipIf(!hasChromium())("the simulator draws each platform's answer as its client would", () => {
  const session = simulatorSession();

  it("on Slack: markdown_text with its heading and bold, a list, the code block, the table as code, the link", async () => {
    const { sim } = session;
    await sim.say("alice", ASK);
    const answer = sim.botAnswers().first();
    await expect.poll(async () => (await drawn(answer)).links, { timeout: ANSWER_TIMEOUT_MS }).toHaveLength(1);
    const shown = await drawn(answer);
    expect(shown.bold).toEqual(["Rollback plan", "Stop the deploy first"]);
    expect(shown.items.map((i) => i.trim())).toEqual([
      "1. Pause the pipeline",
      "2. Revert main to the last good tag",
      "◦ check the error rate",
      "3. Tell #ops when it is done ✅",
    ]);
    expect(shown.code).toEqual(["main"]);
    // Slack shows no code language and no table: the Worker sent the table as a code block of columns.
    expect(shown.blocks).toEqual([
      "git revert --no-edit HEAD && git push",
      "Step    Owner\n------  -----\nRevert  Bob\nVerify  Carol",
    ]);
    expect(shown.links).toEqual(["the runbook → https://example.com/runbook"]);
    expect(shown.text).not.toMatch(/\*\*|```|\|---/);
  });

  it("on Slack: shows the working sign on the message being answered, and takes it off once the answer is out", async () => {
    const { sim, stack } = session;
    const marker = `slow-${Date.now()}`;
    await fetch(`${stack.modelUrl}/__script`, {
      method: "POST",
      body: JSON.stringify({ rules: [{ match: marker, reply: "Done, slowly.", delayMs: 4_000 }] }),
    });
    await sim.say("bob", `@Parley take your time ${marker}`);
    const asked = sim.page.locator("#slack-messages .message", { hasText: marker }).first();
    const sign = asked.locator('[data-testid="reaction"][data-emoji="👀"]');
    await expect.poll(() => sign.textContent(), { timeout: ANSWER_TIMEOUT_MS }).toBe("👀 Parley");
    await sim.page.locator("#slack-messages .message.bot", { hasText: "Done, slowly." }).waitFor({
      timeout: ANSWER_TIMEOUT_MS,
    });
    await expect.poll(() => sign.count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(0);
  });

  it("on Discord: its own Markdown, the code block with its language, the table as code", async () => {
    const { sim } = session;
    await sim.selectTab("discord");
    await sim.sayOnDiscord("carol", ASK);
    const answer = sim.botAnswers("#discord-messages").first();
    await expect.poll(async () => (await drawn(answer)).links, { timeout: ANSWER_TIMEOUT_MS }).toHaveLength(1);
    const shown = await drawn(answer);
    // A heading is drawn larger on Discord; bold and the rest as on Slack.
    expect(await answer.locator(".v-h").allTextContents()).toEqual(["Rollback plan"]);
    expect(shown.bold).toContain("Stop the deploy first");
    expect(shown.blocks).toHaveLength(2);
    expect(shown.text).not.toContain("**");
  });

  it("on Telegram: the entities the Bot API made of the bot's HTML, in a group topic and in a private chat", async () => {
    const { sim } = session;
    await sim.selectTab("telegram");
    await sim.pickPerson("alice");
    await sim.page.fill("#telegram-input", ASK);
    await sim.page.press("#telegram-input", "Enter");
    const answer = sim.botAnswers("#telegram-messages").first();
    await expect.poll(async () => (await drawn(answer)).links, { timeout: ANSWER_TIMEOUT_MS }).toHaveLength(1);
    const group = await drawn(answer);
    expect(group.bold).toEqual(["Rollback plan", "Stop the deploy first"]);
    expect(group.code).toEqual(["main"]);
    expect(group.blocks).toEqual([
      "git revert --no-edit HEAD && git push",
      "Step    Owner\n------  -----\nRevert  Bob\nVerify  Carol",
    ]);
    expect(group.links).toEqual(["the runbook → https://example.com/runbook"]);
    expect(group.text).toContain("   ◦ check the error rate");
    expect(group.text).not.toMatch(/<b>|&lt;|\*\*/);

    await sim.page.click('#telegram-spots button[data-spot="private"]');
    await expect.poll(() => sim.page.locator("#telegram-messages .message").count()).toBe(0);
    await sim.page.fill("#telegram-input", "and the rollback plan again?");
    await sim.page.press("#telegram-input", "Enter");
    const inPrivate = sim.botAnswers("#telegram-messages").first();
    await expect
      .poll(async () => (await drawn(inPrivate)).bold, { timeout: ANSWER_TIMEOUT_MS })
      .toContain("Rollback plan");
    expect(await sim.page.locator("#telegram-title").textContent()).toBe("Alice ↔ Parley");
  });

  it("over SMS: plain text, every mark gone", async () => {
    const { sim } = session;
    await sim.selectTab("sms");
    await sim.text("bob", "what is our rollback plan?");
    const answer = sim.botAnswers("#sms-messages").first();
    await expect.poll(() => answer.textContent(), { timeout: ANSWER_TIMEOUT_MS }).toContain("Rollback plan");
    const text = (await answer.locator('[data-testid="message-text"]').textContent()) ?? "";
    expect(text).toContain("1. Pause the pipeline");
    expect(text).toContain("the runbook (https://example.com/runbook)");
    expect(text).not.toMatch(/\*\*|`|\|/);
    expect(session.consoleErrors).toEqual([]);
  });
});
