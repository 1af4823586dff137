/**
 * @module
 * The simulator's inspector follows the conversation in view: a Slack or Discord thread shows its own conversation,
 * decisions and prompts, and the message it is about first in the thread answer's prompt (a Slack thread read whole
 * when the bot is called into it, a Discord thread's starter message as its parent); each phone its own
 * texter's; "New conversation" starts the one in view afresh, "Clear all" empties the local Redis; a confirm tool's
 * question shows in its prompt and the asker's ✅ on it runs the call; and the page logs no errors while there is
 * no conversation yet.
 */
import { describe, expect, it } from "vitest";
import { hasChromium } from "./browser.ts";
import { ANSWER_TIMEOUT_MS, SLACK_PLACE } from "./simulator-page.ts";
import { simulatorSession } from "./simulator-session.ts";

/** The inspector polls the conversation every 1.5 s: a few polls. */
const FEW_POLLS_MS = 4_000;

/** The people's records of a prompt as the inspector shows it (lib/context/turns.ts), oldest first. */
const records = (prompt: string) =>
  prompt
    .split("\n")
    .filter((line) => line.startsWith('{"author"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe.skipIf(!hasChromium())("the simulator's inspector", () => {
  const session = simulatorSession();

  it("logs no console errors while no conversation exists yet", async () => {
    const { sim } = session;
    await sim.page.waitForTimeout(FEW_POLLS_MS);
    expect(await sim.page.locator("#state").textContent()).toContain("No active conversation here");
    expect(session.consoleErrors).toEqual([]);
  });

  it("opens a Slack thread with its own conversation, decisions and prompts, and its parent message first in the prompt", async () => {
    const { sim } = session;
    await sim.say("alice", "@Parley the deploy failed with exit code 137");
    await expect.poll(() => sim.botAnswers().count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(1);

    const threadPlace = await sim.openThread("the deploy failed");
    expect(threadPlace).toMatch(/^slack\|T0ACME\|C0SIMGENERAL\|\d+\.\d+$/);
    // The channel's decision is not the thread's.
    expect((await sim.inspector()).decisions).toEqual([]);

    await sim.reply("bob", "@Parley can you put that in one sentence?");
    await expect.poll(() => sim.botAnswers("#thread-messages").count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(1);
    await expect.poll(async () => (await sim.inspector()).prompts.length, { timeout: ANSWER_TIMEOUT_MS }).toBe(1);
    const thread = await sim.inspector();
    expect(thread.place).toBe(threadPlace);
    // The thread was read whole when the bot was called into it: its parent, said in the channel, is in it.
    expect(thread.participants).toBe("Alice (1), Bob (1)");
    expect(thread.decisions).toEqual([{ author: "Bob", respond: "yes", reason: "direct_mention" }]);
    expect(thread.prompts[0]).toContain("can you put that in one sentence?");
    // The thread's answer saw its parent first, marked as said before the bot was called into the thread.
    const parent = "@Parley the deploy failed with exit code 137";
    expect(records(thread.prompts[0]!)[0]).toEqual({ author: "Alice", text: parent, before_you_were_called: true });

    await sim.page.click("#thread-close");
    await expect.poll(async () => (await sim.inspector()).place).toBe(SLACK_PLACE);
    expect((await sim.inspector()).decisions).toEqual([{ author: "Alice", respond: "yes", reason: "direct_mention" }]);
  });

  it("shows on each phone the decisions of that phone's texts, under the texter's name", async () => {
    const { sim } = session;
    await sim.selectTab("sms");
    await sim.text("carol", "hello, is anyone there?");
    await expect
      .poll(async () => (await sim.inspector()).decisions, { timeout: ANSWER_TIMEOUT_MS })
      .toEqual([{ author: "Carol", respond: "yes", reason: "dm" }]);
    await expect
      .poll(async () => (await sim.inspector()).participants, { timeout: ANSWER_TIMEOUT_MS })
      .toBe("Carol (1)");
    await sim.pickPerson("alice");
    expect((await sim.inspector()).decisions).toEqual([]);
    expect(await sim.page.locator("#sms-title").textContent()).toContain("Alice's phone");
  });

  it('starts the conversation in view afresh with "New conversation"', async () => {
    const { sim } = session;
    await sim.selectTab("slack");
    await expect
      .poll(async () => (await sim.inspector()).participants, { timeout: ANSWER_TIMEOUT_MS })
      .toBe("Alice (1)");
    await sim.pickPerson("carol");
    await sim.page.click("#new-conversation");
    await sim.page.locator("#slack-messages .message", { hasText: "start over" }).waitFor();
    // The reset word ends Alice's conversation and starts one that holds only Carol's reset.
    await expect
      .poll(async () => (await sim.inspector()).participants, { timeout: ANSWER_TIMEOUT_MS })
      .toBe("Carol (1)");
    await expect
      .poll(async () => (await sim.inspector()).decisions.map((d) => d.author), { timeout: ANSWER_TIMEOUT_MS })
      .toContain("Carol");
  });

  it('empties the local Redis and the page with "Clear all", after a confirmation', async () => {
    const { sim, stack } = session;
    sim.page.once("dialog", (dialog) => void dialog.accept());
    await sim.page.click("#clear-all");
    await expect
      .poll(() => sim.page.locator("#slack-messages .message").count(), { timeout: ANSWER_TIMEOUT_MS })
      .toBe(0);
    // The Slack fake still holds the bot's earlier answers: the page reads its store again, and they stay away.
    await sim.page.waitForTimeout(FEW_POLLS_MS);
    expect(await sim.page.locator("#slack-messages .message").count()).toBe(0);
    await expect.poll(async () => (await sim.inspector()).participants, { timeout: ANSWER_TIMEOUT_MS }).toBeNull();
    const res = await fetch(`${stack.workerUrl}/admin/conversations/${encodeURIComponent(SLACK_PLACE)}`, {
      headers: { Authorization: `Bearer ${stack.adminToken}` },
    });
    expect(res.status).toBe(404);
    expect(session.consoleErrors).toEqual([]);
  });

  it("starts a thread under a message the bot never recorded with that message, read from Slack's history", async () => {
    const { sim } = session;
    const parent = "the build server is down again since noon";
    await sim.say("bob", parent);
    await sim.openThread(parent);
    await sim.reply("carol", "@Parley can you put that in one sentence?");
    await expect.poll(() => sim.botAnswers("#thread-messages").count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(1);
    await expect.poll(async () => (await sim.inspector()).prompts.length, { timeout: ANSWER_TIMEOUT_MS }).toBe(1);
    const thread = await sim.inspector();
    expect(records(thread.prompts[0]!)[0]).toEqual({ author: "Bob", text: parent, before_you_were_called: true });
    expect(thread.prompts[0]!.indexOf(parent)).toBeLessThan(
      thread.prompts[0]!.indexOf("can you put that in one sentence?"),
    );
    expect(session.consoleErrors).toEqual([]);
  });

  it("opens a Discord thread with its own conversation and its starter message first in the thread answer's prompt", async () => {
    const { sim } = session;
    await sim.selectTab("discord");
    const starter = "the nightly backup failed twice this week";
    await sim.sayOnDiscord("alice", starter);
    const threadPlace = await sim.openDiscordThread(starter);
    expect(threadPlace).toMatch(/^discord\|\d+\|\d+\|$/);
    await sim.replyInDiscordThread("bob", "@Parley can you put that in one sentence?");
    await expect.poll(() => sim.botAnswers("#discord-thread-messages").count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(1);
    await expect.poll(async () => (await sim.inspector()).prompts.length, { timeout: ANSWER_TIMEOUT_MS }).toBe(1);
    const thread = await sim.inspector();
    expect(thread.place).toBe(threadPlace);
    expect(thread.participants).toBe("Bob (1)");
    expect(thread.parent).toBe(`Alice: ${starter}`);
    const turns = thread.prompts[0]!.split("\n\n[");
    expect(turns[1]!.split("\n").slice(0, 3)).toEqual([
      "user]",
      "<parley-data>",
      JSON.stringify({ parent_message: { author: "Alice", text: starter } }),
    ]);
    expect(session.consoleErrors).toEqual([]);
  });

  it("shows a confirm tool's question in its prompt, and runs the call when the asker presses Approve on the question", async () => {
    const { sim } = session;
    await sim.selectTab("slack");
    // The channel in view, not the thread an earlier test left open.
    if (await sim.page.locator("#thread-close").isVisible()) await sim.page.click("#thread-close");
    await expect.poll(async () => (await sim.inspector()).place).toBe(SLACK_PLACE);
    await sim.pickPerson("alice");
    await sim.say("alice", '@Parley create_ticket {"title": "Simulator printer jammed"}');
    const question = sim.page.locator("#slack-messages .message.bot", { hasText: "Approval needed" });
    await question.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    await expect
      .poll(async () => (await sim.inspector()).prompts.join("\n"), { timeout: ANSWER_TIMEOUT_MS })
      .toContain("[approval asked]\ncreate_ticket");
    await question.locator('[data-testid="block-button"][data-action="approve"]').click({ timeout: ANSWER_TIMEOUT_MS });
    await sim.page
      .locator("#slack-messages .message.bot", { hasText: "✅ Done: create_ticket: Created ticket" })
      .waitFor({ timeout: ANSWER_TIMEOUT_MS });
    expect(session.consoleErrors).toEqual([]);
  });
});
