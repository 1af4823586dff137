/**
 * @module
 * Feedback on answers on Google Chat (docs/tools.md, "Feedback on answers"; docs/platforms/google-chat.md): where
 * a space's owner turned it on (`/parley feedback on`), the answer's last message gets a card of 👍 and 👎 by a
 * patch of its cards (its words stay, no message is added); a click is a CARD_CLICKED event, recorded once per
 * person and answer (a double click counts once), and answered with a private thanks only the clicker sees. Off by
 * default. Every job is delivered twice.
 */
import { describe, expect, it } from "vitest";
import {
  answerClick,
  click,
  deliver,
  googleChatSuiteEnv,
  newPerson,
  newSpace,
  place,
  say,
  spaceMessages,
} from "../support/google-chat.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle } from "../support/worker.ts";

const SUITE = "gchatfeedback";
const ADMIN_TOKEN = "admin-token-for-google-chat-feedback-0123";
const env = googleChatSuiteEnv(SUITE, { ADMIN_TOKEN, MEMORY_ENABLED: "false", USE_LLM_JUDGE: "false" });
pumpJobsDuringSuite(env, SUITE, { deliverEach: 2 });
const THANKS = "Thanks — noted.";

/** The app's messages everyone sees (private ones apart). */
const shared = async (space: string) => (await spaceMessages(space)).filter((m) => !m.privateViewer);

const buttonsOf = (m: { cardsV2?: { card: { sections: { widgets: Record<string, unknown>[] }[] } }[] }) =>
  (m.cardsV2 ?? []).flatMap((c) =>
    c.card.sections.flatMap((s) =>
      s.widgets.flatMap((w) => (w.buttonList as { buttons: Record<string, unknown>[] } | undefined)?.buttons ?? []),
    ),
  );

async function feedbackCounts(key: string) {
  const res = await callWorker(
    env,
    new Request(`https://bot.test/admin/conversations/${encodeURIComponent(key)}`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "CF-Connecting-IP": "192.0.2.40" },
    }),
  );
  return ((await res.json()) as { feedback: { up: number; down: number; not_you: number } }).feedback;
}

describe("feedback buttons on Google Chat", () => {
  it("puts none under an answer where the space did not turn feedback on", async () => {
    const space = await newSpace("SPACE");
    const { delivery } = await say(space, newPerson("Ida"), "what is a good name for a cat?", { mention: true });
    await deliver(env, delivery);
    await eventually(async () => (await shared(space)).length === 1, 20_000, "the answer");
    await settle(1_500);
    const [answer] = await shared(space);
    expect(answer!.cardsV2 ?? []).toEqual([]);
  });

  it("puts 👍 / 👎 on the answer; a click counts once however often it comes, and is thanked privately", async () => {
    const owner = newPerson("Olive");
    const alice = newPerson("Alice");
    const bob = newPerson("Bob");
    const space = await newSpace("SPACE", [{ user: owner.name, role: "ROLE_MANAGER" }]);
    const on = await say(space, owner, "feedback on", { command: { id: 3, name: "/parley" } });
    expect(((await (await deliver(env, on.delivery)).json()) as { text: string }).text).toMatch(/Feedback: on\.$/);

    const { delivery, thread } = await say(space, alice, "which tea goes with rain?", { mention: true });
    await deliver(env, delivery);
    const answer = await eventually(
      async () => (await shared(space)).find((m) => buttonsOf(m).length > 0),
      20_000,
      "the answer with its buttons",
    );
    expect(buttonsOf(answer).map((b) => b.text)).toEqual(["👍", "👎"]);
    expect(answer.text.length).toBeGreaterThan(0);
    expect(await shared(space)).toHaveLength(1);

    // A double click: both made while the card shows, delivered one after the other.
    const clicks = [await click(space, answer.name, alice, "👍"), await click(space, answer.name, alice, "👍")];
    clicks.push(await click(space, answer.name, bob, "👎"));
    for (const c of clicks) {
      const res = await deliver(env, c.delivery);
      expect(await answerClick(c.click, res)).toEqual({ applied: "created" });
    }
    const notes = (await spaceMessages(space)).filter((m) => m.privateViewer);
    expect(notes.map((m) => [m.privateViewer, m.text])).toEqual([
      [alice.name, THANKS],
      [alice.name, THANKS],
      [bob.name, THANKS],
    ]);
    const key = place(space, thread);
    expect(await feedbackCounts(`google-chat|${key.tenant}|${key.channel}|${key.thread}`)).toEqual({
      up: 1,
      down: 1,
      not_you: 0,
    });
    // The buttons stay for the next person; the answer is still one message.
    expect(buttonsOf((await shared(space))[0]!)).toHaveLength(2);
  });
});
