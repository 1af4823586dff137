/**
 * @module
 * `/parley digest …` read into the plan QStash schedules: a daily or weekly time in a zone (UTC without one) as
 * `CRON_TZ=<zone> m h * * d`, the zone in the canonical spelling QStash's parser needs, and a bad time, weekday or
 * zone answered with what was wrong (nothing scheduled); `digest me …` the same words for the person's own digest,
 * and on Discord `me: True` read as that word whatever order the options come in.
 */
import { describe, expect, it } from "vitest";
import { nextAfter, parseCron } from "../../dev/qstash/cron.ts";
import { cronOf, describePlan, parseDigestCommand } from "../../lib/digests/plan.ts";
import { parsePlaceCommand } from "../../lib/places/command.ts";
import { parleyWords } from "../../lib/platforms/discord/parley.ts";

const words = (text: string) => text.split(" ");

describe("/parley digest", () => {
  it("reads a daily digest in a zone, a weekly one in UTC, off and status", () => {
    expect(parsePlaceCommand("digest daily 09:00 europe/berlin")).toEqual({
      kind: "digest",
      digest: { kind: "schedule", plan: { period: "daily", hour: 9, minute: 0, zone: "Europe/Berlin" } },
    });
    const weekly = parseDigestCommand(words("weekly Friday 16:30"));
    expect(weekly).toEqual({
      kind: "schedule",
      plan: { period: "weekly", weekday: 5, hour: 16, minute: 30, zone: "UTC" },
    });
    expect(parseDigestCommand(["off"])).toEqual({ kind: "off" });
    expect(parseDigestCommand(["status"])).toEqual({ kind: "status" });
  });

  it("schedules the cron QStash fires at that local time", () => {
    const daily = parseDigestCommand(words("daily 9:05 Europe/Berlin"));
    if (daily.kind !== "schedule") throw new Error("not a plan");
    expect(cronOf(daily.plan)).toBe("CRON_TZ=Europe/Berlin 5 9 * * *");
    expect(describePlan(daily.plan)).toBe("daily at 09:05 (Europe/Berlin)");
    // In winter Berlin is UTC+1: 09:05 there is 08:05 UTC.
    const next = nextAfter(parseCron(cronOf(daily.plan)), Date.UTC(2027, 0, 4, 12));
    expect(new Date(next).toISOString()).toBe("2027-01-05T08:05:00.000Z");
    const weekly = parseDigestCommand(words("weekly fri 16:00"));
    if (weekly.kind !== "schedule") throw new Error("not a plan");
    expect(cronOf(weekly.plan)).toBe("CRON_TZ=UTC 0 16 * * 5");
  });

  it("answers a bad time, weekday or zone with what was wrong", () => {
    const problems: [string, RegExp][] = [
      ["daily 25:00", /"25:00" is not a time of day/],
      ["daily 9am", /"9am" is not a time of day/],
      ["daily", /"" is not a time of day/],
      ["weekly fry 16:00", /"fry" is not a weekday/],
      ["weekly 16:00", /"16:00" is not a weekday/],
      ["daily 09:00 Mars/Olympus", /"Mars\/Olympus" is not a time zone/],
      ["daily 09:00 Europe/Berlin extra", /too many words/],
      ["hourly", /daily or weekly/],
    ];
    for (const [text, problem] of problems) {
      const command = parseDigestCommand(words(text));
      expect(command.kind, text).toBe("problem");
      if (command.kind === "problem") expect(command.problem, text).toMatch(problem);
    }
  });

  it("reads `me` as the person's own digest, with the same words and problems", () => {
    expect(parseDigestCommand(words("me daily 08:30 Asia/Tokyo"))).toEqual({
      kind: "me",
      command: { kind: "schedule", plan: { period: "daily", hour: 8, minute: 30, zone: "Asia/Tokyo" } },
    });
    expect(parseDigestCommand(words("ME off"))).toEqual({ kind: "me", command: { kind: "off" } });
    expect(parseDigestCommand(words("me status"))).toEqual({ kind: "me", command: { kind: "status" } });
    expect(parseDigestCommand(words("me weekly fry 09:00"))).toMatchObject({
      kind: "me",
      command: { kind: "problem" },
    });
    // Discord sends the options in any order; `me: False` is no word at all.
    const options = (me: boolean) => ({
      id: "100000000000000043",
      name: "parley",
      type: 1,
      options: [
        {
          name: "digest",
          type: 1,
          options: [
            { name: "me", type: 5, value: me },
            { name: "time", type: 3, value: "08:30" },
            { name: "period", type: 3, value: "daily" },
          ],
        },
      ],
    });
    expect(parleyWords(options(true))).toBe("digest me daily 08:30");
    expect(parleyWords(options(false))).toBe("digest daily 08:30");
  });
});
