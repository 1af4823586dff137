import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { initiativeThreshold, takeInitiative, type Decision } from "../../lib/decide/index.ts";
import { RESPOND_THRESHOLD } from "../../lib/decide/model.ts";
import type { ConversationState, StoredMessage } from "../../lib/message.ts";
import { PLACE_COMMAND_USAGE, parsePlaceCommand } from "../../lib/places/command.ts";
import { DEFAULT_PLACE_SETTINGS, parsePlaceSettings } from "../../lib/places/settings.ts";

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const WINDOW_MS = 60_000;
const ON = { initiative: true, eagerness: 50 };

function state(lines: [author: string, text: string, seconds: number, feedback?: "not_you"][]): ConversationState {
  const recent: StoredMessage[] = lines.map(([authorId, text, s, feedback], k) => ({
    id: `m${k}`,
    role: authorId === "UBOT" ? "assistant" : "user",
    authorId,
    authorName: authorId,
    text,
    ts: T0 + s * 1000,
    ...(feedback ? { feedback } : {}),
  }));
  return { active: true, id: "c1", startedAt: T0, lastActivityAt: T0, lastBotReplyTo: [], answeredThrough: 0, recent };
}

const nobody = (score: number): Decision => ({ respond: "no", reason: "no_trigger", score });
const talk = state([
  ["UALICE", "which plants like shade?", 0],
  ["UBOT", "Pothos and ferns.", 5],
  ["UBOB", "my fern died", 30],
]);

describe("initiative", () => {
  it("eagerness 0 changes nothing, 100 takes every message the model scored, and between them the threshold falls", () => {
    expect(initiativeThreshold(0)).toBe(RESPOND_THRESHOLD);
    expect(initiativeThreshold(100)).toBe(0);
    expect(initiativeThreshold(25)).toBeGreaterThan(initiativeThreshold(50));
    expect(takeInitiative(nobody(0.01), talk, { initiative: true, eagerness: 0 }, WINDOW_MS)).toBeNull();
    expect(takeInitiative(nobody(0), talk, { initiative: true, eagerness: 100 }, WINDOW_MS)).toEqual({
      respond: "yes",
      reason: "initiative",
      score: 0,
    });
    expect(takeInitiative(nobody(initiativeThreshold(50) - 0.01), talk, ON, WINDOW_MS)).toBeNull();
  });

  it("is only ever for a message addressed to nobody, and only where the place turned it on", () => {
    expect(takeInitiative(nobody(0.5), talk, { initiative: false, eagerness: 100 }, WINDOW_MS)).toBeNull();
    expect(takeInitiative({ respond: "no", reason: "addressed_other" }, talk, ON, WINDOW_MS)).toBeNull();
    expect(takeInitiative({ respond: "no", reason: "told_not_you" }, talk, ON, WINDOW_MS)).toBeNull();
    expect(takeInitiative({ respond: "no", reason: "no_trigger" }, talk, ON, WINDOW_MS)).toBeNull();
    expect(takeInitiative({ respond: "yes", reason: "recent_followup", score: 0.9 }, talk, ON, WINDOW_MS)).toBeNull();
    // What would go to the LLM judge ("is this for the bot?") goes unprompted where the bot may join in anyway.
    expect(takeInitiative({ respond: "judge", reason: "judge", score: 0.4 }, talk, ON, WINDOW_MS)).toMatchObject({
      reason: "initiative",
      score: 0.4,
    });
    expect(takeInitiative({ respond: "judge", reason: "judge", score: 0.1 }, talk, ON, WINDOW_MS)).toBeNull();
  });

  it("keeps quiet while anyone's 'not you' or 👎 is within the follow-up window", () => {
    const told = state([
      ["UALICE", "hi", 0],
      ["UBOT", "Hello!", 2],
      ["UCAROL", "not you, Parley", 10],
      ["UBOB", "my fern died", 30],
    ]);
    const thumbs = state([
      ["UBOT", "Hello!", 2],
      ["UCAROL", "", 10, "not_you"],
      ["UBOB", "my fern died", 30],
    ]);
    const longAgo = state([
      ["UBOT", "Hello!", 0],
      ["UCAROL", "not you, Parley", 1],
      ["UBOB", "my fern died", 120],
    ]);
    expect(takeInitiative(nobody(0.5), told, ON, WINDOW_MS)).toBeNull();
    expect(takeInitiative(nobody(0.5), thumbs, ON, WINDOW_MS)).toBeNull();
    expect(takeInitiative(nobody(0.5), longAgo, ON, WINDOW_MS)).toMatchObject({ reason: "initiative" });
  });
});

describe("a place's settings", () => {
  it("read as off when none are stored, or what is stored is not theirs", () => {
    expect(parsePlaceSettings(null)).toEqual(DEFAULT_PLACE_SETTINGS);
    expect(parsePlaceSettings("{not json")).toEqual(DEFAULT_PLACE_SETTINGS);
    expect(parsePlaceSettings(JSON.stringify({ initiative: true, eagerness: 900 }))).toEqual(DEFAULT_PLACE_SETTINGS);
    expect(parsePlaceSettings(JSON.stringify({ initiative: true }))).toEqual({
      initiative: true,
      eagerness: 50,
      rescue: false,
      feedback: false,
    });
    expect(DEFAULT_PLACE_SETTINGS.initiative).toBe(false);
  });

  it("/parley reads the same words on every platform", () => {
    expect(parsePlaceCommand(" Initiative  ON ")).toEqual({ kind: "change", change: { initiative: true } });
    expect(parsePlaceCommand("eagerness 0")).toEqual({ kind: "change", change: { eagerness: 0 } });
    expect(parsePlaceCommand("status")).toEqual({ kind: "status" });
    expect(parsePlaceCommand("feedback on")).toEqual({ kind: "change", change: { feedback: true } });
    expect(parsePlaceCommand("Feedback OFF")).toEqual({ kind: "change", change: { feedback: false } });
    expect(parsePlaceCommand("feedback maybe")).toEqual({ kind: "help", problem: "feedback is on or off" });
    expect(DEFAULT_PLACE_SETTINGS.feedback).toBe(false);
    expect(parsePlaceCommand("forget")).toEqual({ kind: "forget" });
    expect(parsePlaceCommand("eagerness -3")).toMatchObject({
      kind: "help",
      problem: expect.stringMatching(/0 to 100/),
    });
    expect(parsePlaceCommand("initiative maybe")).toMatchObject({ kind: "help" });
    expect(parsePlaceCommand("status now please")).toMatchObject({ kind: "help" });
    expect(parsePlaceCommand("")).toEqual({ kind: "help" });
    expect(parsePlaceCommand("rescue on")).toEqual({ kind: "change", change: { rescue: true } });
    expect(parsePlaceCommand("rescue on 30")).toEqual({ kind: "change", change: { rescue: true, rescueMinutes: 30 } });
    expect(parsePlaceCommand("rescue off")).toEqual({ kind: "change", change: { rescue: false } });
    expect(parsePlaceCommand("rescue off 30")).toMatchObject({ kind: "help" });
    expect(parsePlaceCommand("rescue on 0")).toMatchObject({
      kind: "help",
      problem: expect.stringMatching(/1 to 120 minutes/),
    });
  });
});

describe("the /parley command in Slack's app manifest", () => {
  it("hints at every word the command takes", () => {
    const hint = readFileSync("slack-app-manifest.yaml", "utf8").match(/usage_hint: (.*)/)?.[1] ?? "";
    const words = PLACE_COMMAND_USAGE.replace(/^Usage: \/\S+ /, "").split(" · ");
    for (const word of words) expect(hint, word).toContain(word.split(" ")[0]!);
    expect(hint).toContain("rescue on|off [minutes]");
  });
});
