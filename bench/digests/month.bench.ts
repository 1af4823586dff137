/**
 * @module
 * The month of bench:digests (./run.ts runs it in workerd, on the test stack): ten Slack places, eight with a daily
 * digest at 09:00 UTC and two a weekly one on Fridays at 16:00, and one person's own daily digest at 07:00 of a channel
 * they are in; each place's talk (`traffic.json`, which ./run.ts writes) written before each day's slot. The QStash
 * stand-in's clock and the Worker's move through the month slot by slot (the Worker's at the slot for its first
 * attempts, half an hour on for QStash's last retry), with faults: the first day's answers lost (QStash delivers
 * again), the 12th day's slots delivered twice at once, and on the 20th the Worker down through QStash's first three
 * attempts in three places (their Slack reads fail). Counted from outside: the slots due, those with talk, the digests
 * posted (each mapped to its slot by the link to its first message), duplicates, lost ones, late ones, the model calls
 * and their prompt tokens (lib/context/tokens.ts countTokens, message by message), and Slack history reads per digest.
 */
import { expect, it } from "vitest";
import { countTokens } from "../../lib/context/tokens.ts";
import { digestKit, type DigestPlace } from "../../test/support/digests.ts";
import { scriptFault } from "../../test/support/fault-control.ts";
import { modelRequests, scriptModel } from "../../test/support/model.ts";
import { ALL_RETRIES_MS, prodTimingSuite } from "../../test/support/prod-timing.ts";
import { readClock } from "../../test/support/qstash-clock.ts";
import { SLACK_FAKE_ORIGIN, INSTALLABLE } from "../../test/support/slack-install.ts";
import { slackPosts } from "../../test/support/slack.ts";
import { workerClock } from "../../test/support/worker-clock.ts";
import { pumpJobsDuringSuite } from "../../test/support/worker.ts";

const SUITE = "bench-digests";
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const WEEKLY_FROM = 8;
const kit = prodTimingSuite(SUITE, INSTALLABLE);
const clock = workerClock(kit.env);
const { installedPlace, slash, inSlack, members, schedulesOf } = digestKit(kit, SUITE);
pumpJobsDuringSuite(kit.env, SUITE);

interface Traffic {
  days: number;
  places: number;
  talk: { author: string; text: string }[][][];
}

/** People's ids from the log's nicknames. */
const personOf = (author: string) =>
  `UBDG${
    author
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, "")
      .slice(0, 12) || "X"
  }`;

it("runs a month of digests", { timeout: 3_600_000 }, async () => {
  // The fake's per-minute tiers count real time, while a virtual month passes in a minute or two: a 429 no
  // production timing gives (as bench/chaos/fake-settings.ts says). Its scripted failures still come.
  const tiers = await fetch(`${SLACK_FAKE_ORIGIN}/__config`, {
    method: "POST",
    body: JSON.stringify({ rateLimits: { enabled: false } }),
  });
  expect(tiers.ok).toBe(true);
  const traffic = ((await import(/* @vite-ignore */ `${"./traffic.json"}`)) as { default: Traffic }).default;
  const places: DigestPlace[] = [];
  for (let i = 0; i < traffic.places; i++) places.push(await installedPlace());
  const reader = "UBDGREADER";
  for (const [i, place] of places.entries())
    await slash(place, "UADMIN", i < WEEKLY_FROM ? "digest daily 09:00" : "digest weekly fri 16:00");
  await members(places[0]!, places[0]!.channel, { join: [reader] });
  await slash(places[0]!, reader, "digest me daily 07:00");
  const firstDaily = (await schedulesOf(places[0]!))[0]?.nextScheduleTime ?? 0;
  const dayStart = firstDaily - 9 * HOUR_MS;
  // A day's talk in a place: from 01:00 on, a few minutes apart, before any of its slots.
  for (let day = 0; day < traffic.days; day++)
    for (const [i, place] of places.entries())
      for (const [j, line] of (traffic.talk[day]?.[i] ?? []).entries())
        await inSlack(place, personOf(line.author), line.text, dayStart + day * DAY_MS + HOUR_MS + j * 180_000);
  // Only digests call the model in this run: every call is one of theirs.
  await scriptModel({ match: "", reply: "Topics:\n- what was said [1]" });
  await scriptFault(kit.qstashUrl, { fault: "lose_answer", path: `/t/${SUITE}/jobs/digest`, times: WEEKLY_FROM });

  const slots: { at: number; places: number[]; personal: boolean }[] = [];
  for (let day = 0; day < traffic.days; day++) {
    const base = dayStart + day * DAY_MS;
    slots.push({ at: base + 7 * HOUR_MS, places: [], personal: true });
    slots.push({ at: base + 9 * HOUR_MS, places: [...places.keys()].slice(0, WEEKLY_FROM), personal: false });
    if (new Date(base).getUTCDay() === 5)
      slots.push({ at: base + 16 * HOUR_MS, places: [...places.keys()].slice(WEEKLY_FROM), personal: false });
  }
  const deliveries = { attempts: 0, retries: 0 };
  const to = async (time: number) => {
    const { now } = await readClock(kit.qstashUrl);
    const passed = await kit.timePasses(Math.max(0, time - now));
    deliveries.attempts += passed.deliveries.length;
    deliveries.retries += passed.deliveries.filter((d) => d.retried > 0).length;
  };
  for (const slot of slots) {
    const day = Math.floor((slot.at - dayStart) / DAY_MS);
    if (day === 11 && !slot.personal)
      await scriptFault(kit.qstashUrl, {
        fault: "duplicate",
        concurrent: true,
        path: `/t/${SUITE}/jobs/digest`,
        times: 3,
      });
    if (day === 19 && slot.places.length > 3)
      for (const i of slot.places.slice(0, 3)) {
        const fail = {
          fault: "refuse",
          path: "/conversations.history",
          bodyContains: places[i]!.channel,
          status: 500,
          times: 3,
        };
        expect((await fetch(`${SLACK_FAKE_ORIGIN}/__fail`, { method: "POST", body: JSON.stringify(fail) })).ok).toBe(
          true,
        );
      }
    await to(slot.at - 60_000);
    clock.passes(Math.max(0, slot.at - clock.now()));
    await to(slot.at + 5 * 60_000);
    clock.passes(Math.max(0, slot.at + 35 * 60_000 - clock.now()));
    await to(slot.at + ALL_RETRIES_MS + 60_000);
  }

  // Which slot a digest stands for: the one after its first linked message.
  const slotOf = (text: string, times: number[]) => {
    const ts = /\/p(\d{10})\d{6}/.exec(text)?.[1];
    const at = ts ? Number(ts) * 1000 : Number.NaN;
    return times.find((t) => t >= at);
  };
  const figures = { slotsDue: 0, slotsWithTalk: 0, posted: 0, duplicates: 0, lost: 0, late: 0, postedSilent: 0 };
  const count = (times: number[], talkBefore: (t: number, prev: number) => boolean, posts: { text?: unknown }[]) => {
    const digests = posts.map((p) => String(p.text ?? "")).filter((t) => t.includes("igest"));
    const bySlot = new Map<number, number>();
    for (const text of digests) {
      const slot = slotOf(text, times);
      if (slot !== undefined) bySlot.set(slot, (bySlot.get(slot) ?? 0) + 1);
      if (text.includes("late: it was due")) figures.late += 1;
    }
    figures.slotsDue += times.length;
    figures.posted += digests.length;
    times.forEach((t, k) => {
      const talked = talkBefore(t, k === 0 ? 0 : times[k - 1]!);
      const n = bySlot.get(t) ?? 0;
      if (talked) figures.slotsWithTalk += 1;
      if (talked && n === 0) figures.lost += 1;
      if (!talked && n > 0) figures.postedSilent += n;
      figures.duplicates += Math.max(0, n - 1);
    });
  };
  const said = (i: number) => (t: number, prev: number) =>
    traffic.talk.some(
      (d, day) =>
        (d[i]?.length ?? 0) > 0 &&
        dayStart + day * DAY_MS + HOUR_MS < t &&
        dayStart + day * DAY_MS + HOUR_MS > Math.max(prev, t - 7 * DAY_MS),
    );
  for (const [i, place] of places.entries()) {
    const times = slots.filter((s) => s.places.includes(i)).map((s) => s.at);
    count(times, said(i), await slackPosts(place.channel));
  }
  count(
    slots.filter((s) => s.personal).map((s) => s.at),
    said(0),
    await slackPosts(`D${reader.slice(1)}`),
  );
  const calls = await modelRequests("");
  const promptTokens = calls.reduce((sum, c) => sum + c.messages.reduce((n, m) => n + countTokens(m.content), 0), 0);
  const reads = (await (await fetch(`${SLACK_FAKE_ORIGIN}/__api?method=conversations.history`)).json()) as unknown[];
  const result = {
    ...figures,
    deliveryAttempts: deliveries.attempts,
    qstashRetries: deliveries.retries,
    modelCalls: calls.length,
    promptTokens,
    promptTokensPerDigest: Math.round(promptTokens / Math.max(1, figures.posted)),
    historyReadsPerSlot: Math.round((reads.length / Math.max(1, figures.slotsDue)) * 100) / 100,
  };
  console.log(`bench:digests ${JSON.stringify(result)}`);
  expect(result.duplicates).toBe(0);
});
