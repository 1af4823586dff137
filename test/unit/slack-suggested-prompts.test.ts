/**
 * @module
 * SUGGESTED_PROMPTS as Slack's settings read it (lib/platforms/slack/suggested-prompts.ts), and the title a thread
 * gets from its question (lib/platforms/slack/agent-surface.ts): one line, within TITLE_MAX_CHARS, cut at a word.
 */
import { describe, expect, it } from "vitest";
import { threadTitle, TITLE_MAX_CHARS } from "../../lib/platforms/slack/agent-surface.ts";
import { slackSettings } from "../../lib/platforms/slack/settings.ts";
import {
  DEFAULT_SUGGESTED_PROMPTS,
  MAX_SUGGESTED_PROMPTS,
  promptsOf,
} from "../../lib/platforms/slack/suggested-prompts.ts";

const read = (SUGGESTED_PROMPTS?: string) =>
  slackSettings.read(SUGGESTED_PROMPTS === undefined ? {} : { SUGGESTED_PROMPTS });
const prompt = (n: number) => ({ title: `Prompt ${n}`, message: `Ask ${n}` });

describe("SUGGESTED_PROMPTS", () => {
  it("is the defaults for every workspace when unset or empty", () => {
    for (const unset of [undefined, "", "  "]) {
      const { settings, ignored } = read(unset);
      expect(ignored).toEqual([]);
      expect(promptsOf(settings.SUGGESTED_PROMPTS, "T0ANY")).toEqual(DEFAULT_SUGGESTED_PROMPTS);
    }
  });

  it("takes a list for every workspace, or lists by workspace where a workspace's own wins", () => {
    const all = read(JSON.stringify([prompt(1), prompt(2)])).settings.SUGGESTED_PROMPTS;
    expect(promptsOf(all, "T0ANY")).toEqual([prompt(1), prompt(2)]);
    const byTeam = read(JSON.stringify({ "*": [prompt(1)], T0OWN: [prompt(2)], T0NONE: [] })).settings;
    expect(promptsOf(byTeam.SUGGESTED_PROMPTS, "T0ANY")).toEqual([prompt(1)]);
    expect(promptsOf(byTeam.SUGGESTED_PROMPTS, "T0OWN")).toEqual([prompt(2)]);
    expect(promptsOf(byTeam.SUGGESTED_PROMPTS, "E0ORG:T0OWN")).toEqual([prompt(2)]);
    expect(promptsOf(byTeam.SUGGESTED_PROMPTS, "T0NONE")).toEqual([]);
  });

  it("reads a malformed value as no prompts anywhere, naming the problem but never the value", () => {
    const tooMany = Array.from({ length: MAX_SUGGESTED_PROMPTS + 1 }, (_, i) => prompt(i));
    for (const [value, problem] of [
      ["not json", "not JSON"],
      [JSON.stringify(tooMany), `at most ${MAX_SUGGESTED_PROMPTS} prompts`],
      [JSON.stringify([{ title: "secret title" }]), "0.message"],
      [JSON.stringify({ "#general": [prompt(1)] }), "workspace id"],
    ] as const) {
      const { settings, ignored, essential } = read(value);
      expect(essential).toEqual([]);
      expect(promptsOf(settings.SUGGESTED_PROMPTS, "T0ANY")).toEqual([]);
      expect(ignored).toHaveLength(1);
      expect(ignored[0]!.name).toBe("SUGGESTED_PROMPTS");
      expect(ignored[0]!.problem).toContain(problem.toLowerCase());
      expect(ignored[0]!.problem).not.toContain("secret");
    }
  });
});

describe("a thread's title", () => {
  it("is the question on one line", () => {
    expect(threadTitle("  What changed\n\nin   the release?  ")).toBe("What changed in the release?");
  });

  it("is cut at a word within the limit, with an ellipsis, when the question is longer", () => {
    const question = `${"word ".repeat(40)}end`;
    const title = threadTitle(question);
    expect(title.length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
    expect(title).toMatch(/^(word )+word…$/);
    expect(threadTitle("x".repeat(200))).toHaveLength(TITLE_MAX_CHARS);
  });
});
