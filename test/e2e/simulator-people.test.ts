/**
 * @module
 * What the simulator page shows each person (issue #44): a `/parley` command and its ephemeral answer to the person
 * who typed it only, with no thread under them; a confirm tool's question with Slack's own Approve and Cancel
 * buttons, a stranger's press told privately and changing nothing, every reaction and who put it, the outcome in
 * place of the buttons once the asker decided, its steps in the decisions panel; a Stop button on an answer growing
 * in the channel, pressed by the asker, and Discord's Stop (its components) on an `/ask` answer; a picture pasted
 * into a thread's box sent with the message; an opened prompt that stays open while the panel is drawn again and
 * again; and a catch-up's every model call, each with its prompt.
 */
import { describe, expect, it } from "vitest";
import { hasChromium } from "./browser.ts";
import { ANSWER_TIMEOUT_MS } from "./simulator-page.ts";
import { simulatorSession } from "./simulator-session.ts";
import { encodePng } from "../../dev/files/png.ts";

/** Small enough that the catch-up below takes several chunks, one model call each, and one call to combine them. */
const PROMPT_TOKEN_BUDGET = "900";

describe.skipIf(!hasChromium())("what the simulator shows each person", () => {
  const session = simulatorSession({ settings: { PROMPT_TOKEN_BUDGET } });

  it("shows a /parley command and its answer to the person who typed it only, with no thread under them", async () => {
    const { sim } = session;
    await sim.pickPerson("alice");
    await sim.page.fill("#slack-input", "/parley status");
    await sim.page.press("#slack-input", "Enter");
    const answer = sim.page.locator("#slack-messages .message.bot", { hasText: "Initiative:" });
    await answer.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    expect(await answer.locator('[data-testid="only-you"]').textContent()).toBe("Only visible to you");
    const exchange = sim.page.locator("#slack-messages .message", {
      has: sim.page.locator('[data-testid="only-you"]'),
    });
    expect(await exchange.count()).toBe(2);
    expect(await exchange.locator('[data-testid="open-thread"]').count()).toBe(0);
    await sim.pickPerson("bob");
    expect(await exchange.count()).toBe(0);
    await sim.pickPerson("alice");
    expect(await exchange.count()).toBe(2);
  });

  it("draws a confirm tool's question with Slack's own buttons; a stranger's press or ✅ decides nothing", async () => {
    const { sim } = session;
    await sim.say("alice", '@Parley create_ticket {"title": "Projector in room 4 is broken"}');
    const question = sim.page.locator("#slack-messages .message.bot", { hasText: "Approval needed" });
    await question.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    const buttons = question.locator('[data-testid="block-button"]');
    await expect.poll(() => buttons.allTextContents(), { timeout: ANSWER_TIMEOUT_MS }).toEqual(["Approve", "Cancel"]);
    expect(await buttons.evaluateAll((b) => b.map((x) => x.className))).toEqual([
      "block-button primary",
      "block-button danger",
    ]);
    const state = question.locator('[data-testid="approval-state"]');
    expect(await state.textContent()).toBe("waiting for the asker");

    await sim.pickPerson("bob");
    await question.locator('[data-testid="block-button"][data-action="approve"]').click();
    const onlyBob = sim.page.locator("#slack-messages .message.bot", { hasText: "can approve this" });
    await expect
      .poll(() => onlyBob.textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toMatch(/Only @?Alice can approve this/);
    expect(await onlyBob.locator('[data-testid="only-you"]').count()).toBe(1);
    await question.locator('[data-testid="react-approve"]').click();
    await expect
      .poll(() => question.locator('[data-testid="reaction"]').allTextContents(), { timeout: ANSWER_TIMEOUT_MS })
      .toEqual(["✅ Bob"]);
    await expect
      .poll(() => state.textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toBe("an answer that was not the asker's changed nothing: only the asker decides");
    const row = sim.page.locator('#decisions [data-testid="approval"][data-tool="create_ticket"]');
    await expect
      .poll(() => row.locator('[data-testid="approval-steps"]').textContent())
      .toContain("pressed ✅ ignored");
    await sim.pickPerson("alice");
    expect(await onlyBob.count()).toBe(0);

    await question.locator('[data-testid="block-button"][data-action="approve"]').click();
    await expect.poll(() => state.textContent(), { timeout: ANSWER_TIMEOUT_MS }).toBe("approved by the asker");
    await expect
      .poll(() => question.locator('[data-testid="block-note"]').textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toMatch(/^✅ Approved by @?Alice — running…$/);
    expect(await buttons.count()).toBe(0);
    await sim.page
      .locator("#slack-messages .message.bot", { hasText: "Done: create_ticket" })
      .waitFor({ timeout: ANSWER_TIMEOUT_MS });
    await expect
      .poll(() => row.locator('[data-testid="approval-steps"]').textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toMatch(/pressed ✅ ignored.*✅ ignored.*pressed ✅ approved.*ended: approval_done/);
  });

  it("draws a Telegram question's inline keyboard; a stranger's press gets the bot's alert, the asker's decides", async () => {
    const { sim } = session;
    await sim.selectTab("telegram");
    await sim.page.click('#telegram-spots button[data-spot="general"]');
    await sim.pickPerson("carol");
    await sim.page.fill("#telegram-input", '@Parley create_ticket {"title": "Telegram printer jammed"}');
    await sim.page.press("#telegram-input", "Enter");
    const question = sim.page.locator("#telegram-messages .message.bot", { hasText: "create_ticket" });
    const buttons = question.locator('[data-testid="block-button"]');
    await expect.poll(() => buttons.allTextContents(), { timeout: ANSWER_TIMEOUT_MS }).toEqual(["Approve", "Cancel"]);

    await sim.pickPerson("bob");
    await question.locator('[data-testid="block-button"][data-action$="approve"]').click();
    await expect
      .poll(() => question.locator('[data-testid="press-note"]').textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toMatch(/can approve this/);
    expect(await buttons.count()).toBe(2);

    await sim.pickPerson("carol");
    await question.locator('[data-testid="block-button"][data-action$="approve"]').click();
    await expect.poll(() => buttons.count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(0);
    expect(await question.textContent()).toContain("Approved by");
    await sim.page
      .locator("#telegram-messages .message.bot", { hasText: "Done: create_ticket" })
      .waitFor({ timeout: ANSWER_TIMEOUT_MS });
    await sim.selectTab("slack");
  });

  it("draws a Google Chat question's card buttons; a stranger's click gets a private note, the asker's decides", async () => {
    const { sim } = session;
    await sim.selectTab("google-chat");
    await sim.pickPerson("carol");
    await sim.page.fill("#gchat-input", '@Parley create_ticket {"title": "Chat projector broken"}');
    await sim.page.press("#gchat-input", "Enter");
    const question = sim.page.locator("#gchat-messages .message.bot", { hasText: "create_ticket" }).first();
    const buttons = question.locator('[data-testid="block-button"]');
    await expect.poll(() => buttons.allTextContents(), { timeout: ANSWER_TIMEOUT_MS }).toEqual(["Approve", "Cancel"]);

    await sim.pickPerson("bob");
    await question.locator('[data-testid="block-button"][data-action="Approve"]').click();
    const note = sim.page.locator("#gchat-messages .message.bot", { hasText: "can approve this" });
    await expect
      .poll(() => note.textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toMatch(/Only @?Carol can approve this/);
    expect(await note.locator('[data-testid="only-you"]').count()).toBe(1);
    expect(await buttons.count()).toBe(2);
    await sim.pickPerson("carol");
    expect(await note.count()).toBe(0);

    await question.locator('[data-testid="block-button"][data-action="Approve"]').click();
    await expect.poll(() => buttons.count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(0);
    expect(await question.textContent()).toContain("Approved by");
    await sim.page
      .locator("#gchat-messages .message.bot", { hasText: "Done: create_ticket" })
      .waitFor({ timeout: ANSWER_TIMEOUT_MS });
    await sim.selectTab("slack");
  });

  it("draws Stop on an answer growing in the channel; the asker's press ends it there, saying who stopped it", async () => {
    const { sim } = session;
    await sim.say("alice", "@Parley how do rollbacks work? [[local-model tokens=400 tps=30 first_ms=100]]");
    const button = sim.page.locator('[data-testid="block-button"][data-action="stop"]');
    const answer = sim.page.locator("#slack-messages .message.bot", { has: button });
    await answer.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    const id = await answer.getAttribute("data-id");
    const stop = answer.locator('[data-testid="block-button"][data-action="stop"]');
    await stop.click();
    const stopped = sim.page.locator(`#slack-messages .message.bot[data-id="${id}"]`);
    await expect.poll(() => stopped.textContent(), { timeout: ANSWER_TIMEOUT_MS }).toContain("(stopped by alice)");
    expect(await stopped.locator('[data-testid="block-button"]').count()).toBe(0);
  });

  it("draws Discord's Stop on an /ask answer as it grows; the asker's press ends it there, saying who", async () => {
    const { sim } = session;
    await sim.pickPerson("alice");
    await sim.selectTab("discord");
    await sim.page.selectOption("#discord-mode", "ask");
    await sim.page.fill("#discord-input", "how do rollbacks work? [[local-model tokens=400 tps=30 first_ms=100]]");
    await sim.page.press("#discord-input", "Enter");
    const stop = sim.page.locator('[data-testid="block-button"]', { hasText: "Stop" });
    const answer = sim.page.locator("#discord-messages .message.bot", { has: stop });
    await answer.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    const id = await answer.getAttribute("data-id");
    const button = answer.locator('[data-testid="block-button"]', { hasText: "Stop" });
    expect(await button.getAttribute("class")).toContain("danger");
    await button.click();
    const stopped = sim.page.locator(`#discord-messages .message.bot[data-id="${id}"]`);
    await expect.poll(() => stopped.textContent(), { timeout: ANSWER_TIMEOUT_MS }).toContain("(stopped by Alice)");
    await expect.poll(() => stopped.locator('[data-testid="block-button"]').count()).toBe(0);
    await sim.selectTab("slack");
  });

  it("sends a picture pasted into a thread's box with the message, and offers the file picker there too", async () => {
    const { sim } = session;
    await sim.say("carol", "the dashboard shows an odd colour");
    await sim.openThread("the dashboard shows an odd colour");
    const box = sim.page.locator('form[data-platform="slack"][data-thread]');
    expect(await box.locator("input[type=file]").count()).toBe(1);
    const png = [...encodePng(32, 24, [220, 30, 30])];
    // What a browser hands a page for a pasted screenshot: a clipboard event whose files hold a nameless PNG.
    await sim.page.evaluate(`(() => {
      const file = new File([new Uint8Array(${JSON.stringify(png)})], "", { type: "image/png" });
      const data = new DataTransfer();
      data.items.add(file);
      const input = document.querySelector("#thread-input");
      input.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    })()`);
    const attached = box.locator('[data-testid="attached"]');
    await expect.poll(() => attached.textContent()).toContain("📎 pasted.png");
    // The chosen file's name shows whole (the browser's own "No file chosen" no longer squeezed beside the box).
    expect(await attached.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    await sim.page.fill("#thread-input", "@Parley what colour is this?");
    await sim.page.press("#thread-input", "Enter");
    await expect
      .poll(() => sim.botAnswers("#thread-messages").first().textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toContain("mostly red");
    expect(await attached.isHidden()).toBe(true);
    await sim.page.click("#thread-close");
  });

  it("keeps an opened prompt open for a minute while the panel is drawn again on every poll", {
    timeout: 120_000,
  }, async () => {
    const { sim } = session;
    await sim.say("bob", "@Parley what should we call the new service?");
    const prompt = sim.page.locator('[data-testid="prompt"]', { hasText: "what should we call the new service?" });
    await prompt.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    await prompt.locator("summary").click();
    const expires = sim.page.locator('[data-testid="expires-in"]');
    const before = await expires.textContent();
    await sim.page.waitForTimeout(60_000);
    // The panel was drawn again meanwhile (the conversation's time left went down), and the prompt is still open.
    expect(await expires.textContent()).not.toBe(before);
    expect(await prompt.evaluate((details) => (details as unknown as { open: boolean }).open)).toBe(true);
    expect(await prompt.locator("pre").first().isVisible()).toBe(true);
  });

  it("lists each model call of a catch-up, its chunks' and the one that combines them, each with its prompt", async () => {
    const { sim, stack } = session;
    // Said in Slack since Carol last wrote here (a test above), in the seconds before she asks.
    const start = Math.floor(Date.now() / 1000) - 30;
    for (let i = 0; i < 60; i++) {
      const body = {
        team: "T0ACME",
        channel: "C0SIMGENERAL",
        user: i % 2 ? "U0SIMALICE" : "U0SIMBOB",
        text: `the migration plan, step ${i}: move the tables of shard ${i}`,
        ts: `${start + Math.floor(i / 3)}.${String(100 + (i % 3)).padStart(6, "0")}`,
      };
      await fetch(`${stack.slackFakeUrl}/__messages`, { method: "POST", body: JSON.stringify(body) });
    }
    await sim.say("carol", "@Parley catch me up");
    const prompt = sim.page.locator('[data-testid="prompt"]', { hasText: "catch_up" }).first();
    await prompt.waitFor({ timeout: ANSWER_TIMEOUT_MS * 2 });
    await prompt.locator("summary").first().click();
    const calls = prompt.locator('[data-testid="model-call"]');
    const count = await calls.count();
    expect(count).toBeGreaterThanOrEqual(3);
    expect(await prompt.locator("summary").first().textContent()).toContain(`${count} model calls`);
    const labels = await calls.locator("summary").allTextContents();
    expect(labels[0]).toMatch(/^call 1 · part 1 of \d+: \d+ messages · \d+ tokens$/);
    expect(labels.at(-1)).toMatch(
      new RegExp(`^call ${count} · combining the notes of ${count - 1} parts · \\d+ tokens$`),
    );
    await calls.first().locator("summary").click();
    expect(await calls.first().locator("pre").textContent()).toContain("the migration plan, step");
    expect(session.consoleErrors).toEqual([]);
  });
});
