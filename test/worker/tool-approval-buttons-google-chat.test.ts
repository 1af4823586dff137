/**
 * Approval with buttons on Google Chat (docs/tools.md, docs/platforms/google-chat.md): an app with app
 * authentication reads no reactions, so the confirm tool's question is answered by the buttons of its card alone,
 * Approve and Cancel, put on by `spaces.messages.patch` (`updateMask=cardsV2`) once the approval is open. A click is
 * a CARD_CLICKED event on POST /google-chat/events (signed as every event), answered in the event's response: for
 * the asker's click, which decides it through the same script as a press elsewhere and runs the call exactly once at
 * the tool server however often it comes (a double click, Chat's redelivery), an update of the message that keeps
 * the question, puts the outcome under it and takes the card away; for anyone else's, a private message only they
 * see, which changes nothing. The fake's Chat does with each answer what Chat does. Every job is delivered twice.
 */
import { describe, expect, it } from "vitest";
import { prodTimingSuite } from "../support/prod-timing.ts";
import {
  answerClick,
  click,
  deliver,
  ENDPOINT_URL,
  googleChatSuiteEnv,
  newPerson,
  newSpace,
  PROJECT_NUMBER,
  say,
  spaceMessages,
  type Person,
  type SeenMessage,
} from "../support/google-chat.ts";
import { createCalls, toolSettings } from "../support/tools.ts";
import { eventually, pumpJobsDuringSuite, settle, type TestEnv } from "../support/worker.ts";

const TOOLS = toolSettings("lookup_ticket,create_ticket");
const SUITE = "buttonsgchat";
const env = googleChatSuiteEnv(SUITE, TOOLS);
pumpJobsDuringSuite(env, SUITE, { deliverEach: 2 });
const ADD_ON_SUITE = "buttonsgchataddon";
const addOnEnv = googleChatSuiteEnv(ADD_ON_SUITE, { ...TOOLS, GOOGLE_CHAT_AUDIENCE: ENDPOINT_URL });
pumpJobsDuringSuite(addOnEnv, ADD_ON_SUITE);

const ADD_ON = { framing: "add-on", audience: ENDPOINT_URL } as const;

/** `alice` asks the app in a new space to create a ticket titled `title`; the space. */
async function ask(
  testEnv: TestEnv,
  alice: Person,
  title: string,
  opts: { framing?: "add-on"; audience?: string } = {},
) {
  const space = await newSpace("SPACE");
  const { delivery } = await say(space, alice, `create_ticket {"title": "${title}"}`, { mention: true, ...opts });
  expect((await deliver(testEnv, delivery)).status).toBe(200);
  return space;
}

/** The app's messages everyone sees (private ones apart). */
const shared = async (space: string) => (await spaceMessages(space)).filter((m) => !m.privateViewer);

/** The question, once its card is on. */
const question = (space: string) =>
  eventually(async () => (await shared(space)).find((m) => m.cardsV2?.length), 15_000, "the question with its card");

/** The line under the question once its card is gone. */
const outcome = (space: string, name: string) =>
  eventually(
    async () => {
      const asked = (await shared(space)).find((m) => m.name === name);
      return asked && !asked.cardsV2?.length && asked.text.split("\n").at(-1);
    },
    15_000,
    "the outcome on the question",
  );

/** `who` clicks `button` on the question (the click not yet delivered). */
function clickOn(testEnv: TestEnv, space: string, asked: SeenMessage, who: Person, button: string) {
  return click(space, asked.name, who, button, testEnv === addOnEnv ? ADD_ON : { audience: PROJECT_NUMBER });
}

/** Delivers the click `times` times; the Worker's answers, in order, the first handed to the fake's Chat. */
async function delivered(testEnv: TestEnv, clicked: Awaited<ReturnType<typeof click>>, times = 1) {
  const answers = [];
  for (let i = 0; i < times; i++) {
    const res = await deliver(testEnv, clicked.delivery);
    expect(res.status).toBe(200);
    answers.push((await res.clone().json()) as Record<string, unknown>);
    // Chat acts on the answer to its first delivery; a redelivery's answer is the test's alone.
    if (i === 0) expect(await answerClick(clicked.click, res)).not.toHaveProperty("refused");
  }
  return answers;
}

/** `who` clicks `button` on the question, the click delivered `times` times; the Worker's answers. */
const press = async (testEnv: TestEnv, space: string, asked: SeenMessage, who: Person, button: string, times = 1) =>
  delivered(testEnv, await clickOn(testEnv, space, asked, who, button), times);

describe("a confirm tool's buttons on Google Chat", () => {
  it("shows Approve and Cancel; runs the call once on the asker's click, never on a stranger's", async () => {
    const alice = newPerson("Alice");
    const title = `Google Chat buttons ${alice.name}`;
    const space = await ask(env, alice, title);
    const asked = await question(space);
    expect(asked.text).toContain("Approval needed: may I run create_ticket");
    expect(asked.text).toContain("The person who asked can press Approve or Cancel, within 15 minutes.");
    const buttons = asked.cardsV2![0]!.card.sections[0]!.widgets[0]!.buttonList as { buttons: unknown[] };
    expect(buttons.buttons).toEqual([
      expect.objectContaining({
        text: "Approve",
        onClick: { action: { function: "parley_control", parameters: [{ key: "parley_control", value: "approve" }] } },
      }),
      expect.objectContaining({
        text: "Cancel",
        onClick: { action: { function: "parley_control", parameters: [{ key: "parley_control", value: "cancel" }] } },
      }),
    ]);

    const bob = newPerson("Bob");
    const [toBob] = await press(env, space, asked, bob, "Approve");
    expect(toBob).toEqual({
      actionResponse: { type: "NEW_MESSAGE" },
      text: `Only <${alice.name}> can approve this.`,
      privateMessageViewer: { name: bob.name },
    });
    const notes = (await spaceMessages(space)).filter((m) => m.privateViewer);
    expect(notes.map((m) => [m.privateViewer, m.text])).toEqual([[bob.name, `Only <${alice.name}> can approve this.`]]);
    await settle(1_500);
    expect(await shared(space)).toHaveLength(1);
    expect((await question(space)).cardsV2).toHaveLength(1);
    expect(await createCalls(title)).toEqual([]);

    // A double click (two clicks before the first's answer took the card away), the second delivered twice.
    const first = await clickOn(env, space, asked, alice, "Approve");
    const second = await clickOn(env, space, asked, alice, "Approve");
    const [decided] = await delivered(env, first);
    expect(decided).toEqual({
      actionResponse: { type: "UPDATE_MESSAGE" },
      text: `${asked.text}\n\n✅ Approved by <${alice.name}> — running…`,
      cardsV2: [],
    });
    // The answer took the card away at once, before the continuation settles the question.
    expect((await shared(space)).find((m) => m.name === asked.name)?.cardsV2 ?? []).toEqual([]);
    const repeats = await delivered(env, second, 2);
    expect(await outcome(space, asked.name)).toBe(`✅ Approved by <${alice.name}> — running…`);
    const done = await eventually(async () => (await shared(space))[1], 15_000, "the result");
    expect(done.text).toMatch(/^✅ Done: create_ticket: Created ticket/);
    await settle(1_500);
    expect(await shared(space)).toHaveLength(2);
    expect(await createCalls(title)).toEqual([1]);
    for (const repeat of repeats) expect(repeat.text).toMatch(/^This (was already approved|question is settled)/);
  });

  it("cancels on the asker's Cancel, once, and never calls the tool", async () => {
    const alice = newPerson("Alice");
    const title = `Google Chat cancelled ${alice.name}`;
    const space = await ask(env, alice, title);
    const asked = await question(space);
    await press(env, space, asked, alice, "Cancel", 2);
    expect(await outcome(space, asked.name)).toBe(`❌ Cancelled by <${alice.name}>`);
    const cancelled = await eventually(async () => (await shared(space))[1], 15_000, "the cancellation");
    expect(cancelled.text).toMatch(/^❌ Cancelled: create_ticket was not run/);
    await settle(1_500);
    expect(await shared(space)).toHaveLength(2);
    expect(await createCalls(title)).toEqual([]);
  });

  it("answers an add-on's click in the add-on's framing, its buttons naming the endpoint", async () => {
    const alice = newPerson("Alice");
    const title = `Google Chat add-on buttons ${alice.name}`;
    const space = await ask(addOnEnv, alice, title, ADD_ON);
    const asked = await question(space);
    expect(JSON.stringify(asked.cardsV2)).toContain(`"function":"${ENDPOINT_URL}"`);
    const [decided] = await press(addOnEnv, space, asked, alice, "Approve");
    expect(decided).toEqual({
      hostAppDataAction: {
        chatDataAction: {
          updateMessageAction: {
            message: { text: `${asked.text}\n\n✅ Approved by <${alice.name}> — running…`, cardsV2: [] },
          },
        },
      },
    });
    await eventually(async () => (await shared(space)).length === 2, 15_000, "the result");
    expect(await createCalls(title)).toEqual([1]);
  });
});

describe("a confirm tool's buttons on Google Chat at production timing", () => {
  const kit = prodTimingSuite("buttonsgchattiming", { ...TOOLS, GOOGLE_CHAT_AUDIENCE: PROJECT_NUMBER });
  pumpJobsDuringSuite(kit.env, "buttonsgchattiming");

  it("gives way to the expiry, and a click that arrives after it is told so and runs nothing", async () => {
    const alice = newPerson("Alice");
    const title = `Google Chat too late ${alice.name}`;
    const space = await ask(kit.env, alice, title);
    await kit.deliveriesSettled();
    const asked = await question(space);
    // Clicked while the card showed (a client that had not yet seen the outcome), delivered after the expiry.
    const late = await click(space, asked.name, alice, "Approve");
    await kit.timePasses(15 * 60_000 + 10_000);
    expect(await outcome(space, asked.name)).toBe("⌛ Nobody approved this in time: nothing was run.");
    const started = Date.now();
    const res = await deliver(kit.env, late.delivery);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await res.json()).toEqual({
      actionResponse: { type: "NEW_MESSAGE" },
      text: "This question is settled: its outcome is on it.",
      privateMessageViewer: { name: alice.name },
    });
    await kit.deliveriesSettled();
    await kit.timePasses(60_000);
    await settle(1_000);
    expect(await shared(space)).toHaveLength(2);
    expect(await createCalls(title)).toEqual([]);
  });
});
