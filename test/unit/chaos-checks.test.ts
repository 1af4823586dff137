import { describe, expect, it } from "vitest";
import { checkAnswers, type Output } from "../../bench/chaos/checks.ts";
import { chaosLeakPatterns, checkLines, leakPatterns } from "../../bench/chaos/leaks.ts";
import { tagOf, type Conversation } from "../../bench/chaos/plan.ts";
import { APOLOGY } from "../../lib/notices.ts";

/** Two Slack conversations under one channel id, one per workspace, and an SMS one. */
const conversations: Conversation[] = [
  {
    id: 1,
    kind: "slack_channel",
    tag: tagOf(1),
    place: { platform: "slack", tenant: "TA", channel: "C1" },
    messages: [{ word: "w1", trigger: true }],
  },
  {
    id: 2,
    kind: "slack_channel",
    tag: tagOf(2),
    place: { platform: "slack", tenant: "TB", channel: "C1" },
    messages: [{ word: "w2", trigger: true }],
  },
  {
    id: 3,
    kind: "sms",
    tag: tagOf(3),
    place: { platform: "twilio", tenant: "AC", channel: "+15550000003" },
    messages: [{ word: "w3", trigger: true }],
  },
];
const accepted = new Set(["w1", "w2", "w3"]);
/** A post in C1 with the bot token of `team`. */
const slack = (text: string, team = "TA"): Output => ({
  place: { platform: "slack", tenant: team, channel: "C1" },
  text,
});
const sms = (text: string): Output => ({ place: { platform: "twilio", channel: "+15550000003" }, text });

describe("bench/chaos answer checks", () => {
  it("count one answer per conversation, and an apology for one left without", () => {
    const problems: string[] = [];
    const f = checkAnswers(
      conversations,
      accepted,
      [slack(`You said: "${tagOf(1)} hi"`), slack(APOLOGY, "TB"), sms(`You said: "${tagOf(3)}"`)],
      problems,
    );
    expect(f).toMatchObject({
      accepted: 3,
      answered_once: 2,
      apologized: 1,
      answered_twice: 0,
      unanswered: 0,
      misplaced: 0,
    });
    expect(problems).toEqual([]);
  });

  it("find an answer twice, an answer missing, an answer in another place and an apology too many", () => {
    const problems: string[] = [];
    const outputs = [slack(`${tagOf(1)}`), slack(`${tagOf(1)} again`), sms(`${tagOf(2)}`), sms(APOLOGY), sms(APOLOGY)];
    const f = checkAnswers(conversations, accepted, outputs, problems);
    expect(f).toMatchObject({ answered_twice: 2, unanswered: 1, misplaced: 1, apologized: 1 });
    expect(problems).toHaveLength(4);
  });

  it("count an answer posted with the other workspace's token as misplaced", () => {
    const problems: string[] = [];
    const f = checkAnswers(
      conversations,
      accepted,
      [slack(tagOf(1), "TB"), slack(tagOf(2), "TB"), sms(tagOf(3))],
      problems,
    );
    expect(f).toMatchObject({ answered_once: 2, misplaced: 1, unanswered: 1 });
    expect(problems).toHaveLength(2);
  });

  it("count a stream's first words left where the platform cannot find them as what it allows, only there", () => {
    const problems: string[] = [];
    const outputs = [sms(`(${tagOf(3)}`.slice(0, 1)), sms(`(${tagOf(3)} hi)`), slack("(")];
    const f = checkAnswers(conversations, new Set(["w3"]), outputs, problems, new Set(["twilio|+15550000003|"]));
    expect(f).toMatchObject({ answered_once: 1, twice_as_platform_allows: 1, misplaced: 1 });
    expect(problems).toHaveLength(1);
  });

  it("allow one apology sent again only where a send's answer was lost on a platform that cannot look for it", () => {
    const outputs = [sms(APOLOGY), sms(APOLOGY)];
    expect(checkAnswers(conversations, new Set(["w3"]), outputs, [], new Set(["twilio|+15550000003|"]))).toMatchObject({
      apologized: 1,
      twice_as_platform_allows: 1,
      answered_twice: 0,
    });
    expect(checkAnswers(conversations, new Set(["w3"]), outputs, [])).toMatchObject({
      apologized: 1,
      answered_twice: 1,
    });
  });

  it("owe nothing to a trigger the platform saw fail, but allow it one apology", () => {
    const f = checkAnswers(
      conversations,
      new Set(["w1", "w2"]),
      [slack(tagOf(1)), slack(tagOf(2), "TB"), sms(APOLOGY)],
      [],
    );
    expect(f).toMatchObject({ accepted: 2, answered_once: 2, answered_twice: 0, unanswered: 0 });
  });
});

describe("bench/chaos leak patterns", () => {
  it("catch a phone number, a token and a message's text, and pass pseudonyms", () => {
    const lines = [
      '{"from":"+15551000042"}',
      '{"t":"xoxb-bench"}',
      `{"text":"${tagOf(7)}"}`,
      '{"author":"p-5067fcb51af105b4"}',
    ];
    const problems: string[] = [];
    expect(checkLines("log line", lines, leakPatterns(["xoxb-bench"]), problems)).toBe(3);
  });

  it("catch a workspace's installed bot token, as the Slack fake issues it", () => {
    const lines = ['{"token":"xoxb-TCHAOSA-9f3c0a1b2c3d4e5f60718293"}', '{"tenant":"TCHAOSA"}'];
    expect(checkLines("log line", lines, chaosLeakPatterns(), [])).toBe(1);
  });
});
