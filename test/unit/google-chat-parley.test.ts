/**
 * @module
 * Google Chat's `/parley` read from the events Chat sends (test/fixtures/platforms/google-chat/parley.json, with
 * their sources): the slash command in a space and an add-on's in a DM give the words, the space's settings key
 * (never its thread) and who used it; another command or a plain message is none; the answer is private in a space
 * and plain in a DM, framed as the event was.
 */
import { describe, expect, it } from "vitest";
import { readChatEvent } from "../../lib/platforms/google-chat/event.ts";
import { parleyAnswer, readParleyCommand } from "../../lib/platforms/google-chat/parley.ts";
import events from "../fixtures/platforms/google-chat/events.json" with { type: "json" };
import fixtures from "../fixtures/platforms/google-chat/parley.json" with { type: "json" };

const read = (body: unknown) => readParleyCommand(readChatEvent(body));

describe("Google Chat's /parley", () => {
  it("is read from a slash command in a space: the words, the space's key, the user", () => {
    expect(read(fixtures.events.parleyInSpace.body)).toEqual({
      words: " feedback on",
      place: { platform: "google-chat", tenant: "AAAAAAAAAAA", channel: "AAAAAAAAAAA" },
      space: fixtures.events.parleyInSpace.body.space,
      user: "users/12345678901234567890",
      framing: "interaction",
    });
  });

  it("is read from an add-on's app command in a DM", () => {
    expect(read(fixtures.events.addOnParleyInDm.body)).toMatchObject({
      words: " status",
      place: { platform: "google-chat", tenant: "DDDDDDDDDDD", channel: "DDDDDDDDDDD" },
      framing: "add-on",
    });
  });

  it("is none for another command or a plain message", () => {
    expect(read(events.events.slashCommand.body)).toBeNull();
    expect(read(events.events.mentionInSpace.body)).toBeNull();
  });

  it("answers privately in a space and plainly in a DM", async () => {
    const inSpace = parleyAnswer(read(fixtures.events.parleyInSpace.body)!, "Feedback: on.");
    expect(await inSpace.json()).toEqual({
      actionResponse: { type: "NEW_MESSAGE" },
      text: "Feedback: on.",
      privateMessageViewer: { name: "users/12345678901234567890" },
    });
    const inDm = parleyAnswer(read(fixtures.events.addOnParleyInDm.body)!, "Feedback: off.");
    expect(await inDm.json()).toEqual({
      hostAppDataAction: { chatDataAction: { createMessageAction: { message: { text: "Feedback: off." } } } },
    });
  });
});
