/**
 * @module
 * `/parley` on Google Chat (a slash command, id 3): anyone sees the place's settings, only a space's owner or manager
 * (its membership's role, read with spaces.members.get) changes them, in a DM the person; the answer is the event's
 * response, private to whoever used the command in a space (privateMessageViewer), in either framing; nothing of it
 * reaches the model, and a thread has its space's settings.
 */
import { describe, expect, it } from "vitest";
import { deliver, googleChatSuiteEnv, newPerson, newSpace, say } from "../support/google-chat.ts";
import { modelRequests } from "../support/model.ts";
import { pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "gchatparley";
const env = googleChatSuiteEnv(SUITE);
const PARLEY = { id: 3, name: "/parley" };
const OFF = "Initiative: off (eagerness 50). Rescue: off. Feedback: off.";

pumpJobsDuringSuite(env, SUITE);

/** `from` uses `/parley <words>` in the space (a reply in `thread` when given); what the Worker answered Chat. */
async function parley(space: string, from: ReturnType<typeof newPerson>, words: string, opts = {}) {
  const { delivery } = await say(space, from, words, { command: PARLEY, ...opts });
  const res = await deliver(env, delivery);
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe("/parley on Google Chat", () => {
  it("shows anyone a space's settings privately, and lets only its owner or a manager change them", async () => {
    const owner = newPerson("Olive");
    const manager = newPerson("Manny");
    const member = newPerson("Mel");
    const space = await newSpace("SPACE", [
      { user: owner.name, role: "ROLE_MANAGER" },
      { user: manager.name, role: "ROLE_ASSISTANT_MANAGER" },
    ]);
    const status = await parley(space, member, "status");
    expect(status.status).toBe(200);
    expect(status.json).toEqual({
      actionResponse: { type: "NEW_MESSAGE" },
      text: OFF,
      privateMessageViewer: { name: member.name },
    });
    const refused = await parley(space, member, "initiative on");
    expect(refused.json.text).toMatch(/^Only a workspace or server admin, or whoever may manage this channel/);
    expect(refused.json.text).toContain("Initiative: off");

    expect((await parley(space, owner, "initiative on")).json.text).toBe(
      "Done. Initiative: on (eagerness 50). Rescue: off. Feedback: off.",
    );
    expect((await parley(space, manager, "feedback on")).json.text).toBe(
      "Done. Initiative: on (eagerness 50). Rescue: off. Feedback: on.",
    );
    // A manager of one space is nobody special in another.
    expect((await parley(await newSpace("SPACE"), manager, "initiative on")).json.text).toMatch(/^Only/);
    // In a thread: the space's settings, the answer still the user's alone.
    const { thread } = await say(space, member, "a thread about the launch");
    expect((await parley(space, member, "status", { thread })).json).toMatchObject({
      text: "Initiative: on (eagerness 50). Rescue: off. Feedback: on.",
      privateMessageViewer: { name: member.name },
    });
    // Neither a command nor its answer reaches the model (any suite's prompts are searched: "/parley" alone would
    // match every catch-up's `</parley-data>`).
    expect([...(await modelRequests("initiative on")), ...(await modelRequests("Feedback: on."))]).toEqual([]);
  });

  it("lets the person change their DM's settings, answered in the DM; nobody in a group chat", async () => {
    const dee = newPerson("Dee");
    const dm = await newSpace("DIRECT_MESSAGE");
    expect((await parley(dm, dee, "eagerness 30")).json).toEqual({
      actionResponse: { type: "NEW_MESSAGE" },
      text: "Done. Initiative: off (eagerness 30). Rescue: off. Feedback: off.",
    });
    const group = await newSpace("GROUP_CHAT");
    expect((await parley(group, dee, "initiative on")).json.text).toMatch(/^Only/);
  });

  it("answers an add-on's command with a private createMessageAction, and says how to use it", async () => {
    const ann = newPerson("Ann");
    const space = await newSpace("SPACE");
    const answer = await parley(space, ann, "eagerness loud", { framing: "add-on" });
    expect(answer.json).toEqual({
      hostAppDataAction: {
        chatDataAction: {
          createMessageAction: {
            message: {
              text: expect.stringMatching(/^eagerness is a whole number from 0 to 100\. Usage: \/parley/),
              privateMessageViewer: { name: ann.name },
            },
          },
        },
      },
    });
  });
});
