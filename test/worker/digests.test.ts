/**
 * @module
 * Digests on Slack at production timing, on the QStash stand-in's controllable clock (issue #43): `/parley digest
 * daily 09:00 Europe/Berlin` creates one QStash schedule, whose delivery at 09:00 Berlin posts one summary of what
 * the channel said in the catch-up's form with links (leaving out a person who asked to be forgotten); a
 * redelivery of that slot posts nothing more, a silent day posts nothing, a slot the Worker missed is posted late
 * once and says so, `off` deletes the schedule at the stand-in, and a bad time or zone changes nothing. (The
 * stand-in refusing a malformed cron as QStash does: test/dev/qstash-schedules.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { digestKit } from "../support/digests.ts";
import { scriptFault } from "../support/fault-control.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import { ALL_RETRIES_MS, prodTimingSuite } from "../support/prod-timing.ts";
import { SLACK_FAKE_ORIGIN, INSTALLABLE } from "../support/slack-install.ts";
import { workerClock } from "../support/worker-clock.ts";
import { pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "digests";
const DAY_MS = 86_400_000;
const kit = prodTimingSuite(SUITE, INSTALLABLE);
const clock = workerClock(kit.env);
const {
  digestPath: DIGEST_PATH,
  installedPlace,
  slash,
  inSlack,
  digestsIn,
  schedulesOf: scheduleOf,
  until,
  forgetMe,
} = digestKit(kit, SUITE);

pumpJobsDuringSuite(kit.env, SUITE);

describe("a place's digest on Slack", () => {
  it("posts one digest at 09:00 Berlin, nothing more for a redelivery, nothing on a silent day", async () => {
    const place = await installedPlace();
    const tag = `dg-${place.id}`;
    // Erin wrote in the channel, then asked the bot to forget her: the digest leaves her out.
    await inSlack(place, "UERIN", `my home address is 4 Elm Street ${tag}`, Date.now() - 60_000);
    await forgetMe(place, "UERIN");

    const answer = await slash(place, "UADMIN", "digest daily 09:00 Europe/Berlin");
    expect(answer).toMatch(/^Done\. Digest: daily at 09:00 \(Europe\/Berlin\)\. Next: /);
    const [schedule, ...others] = await scheduleOf(place);
    expect(others).toEqual([]);
    expect(schedule?.cron).toBe("CRON_TZ=Europe/Berlin 0 9 * * *");
    const slot = schedule?.nextScheduleTime ?? 0;
    expect(new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", timeStyle: "short" }).format(slot)).toBe(
      "09:00",
    );

    // Erin's words are within the day the digest reads: only her request keeps them out.
    expect(slot - DAY_MS).toBeLessThan(Date.now() - 60_000);
    const first = await inSlack(place, "UALICE", `the deploy broke checkout ${tag}`, slot - 3_600_000);
    await inSlack(place, "UBOB", `rolling back to 4.12 ${tag}`, slot - 1_800_000);
    await scriptModel({ match: tag, reply: "Topics:\n- checkout broke [1]\nDecisions:\n- roll back [2]" });
    // The Worker answers the slot's first delivery, and QStash delivers it again as if it had not.
    await scriptFault(kit.qstashUrl, { fault: "lose_answer", path: DIGEST_PATH, times: 1 });

    const deliveries = await until(slot + ALL_RETRIES_MS);
    expect(deliveries.map((d) => d.retried)).toEqual([0, 1]);
    expect(deliveries.at(-1)?.status).toBe(200);
    const posted = await digestsIn(place);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.text).toContain("daily at 09:00 (Europe/Berlin)");
    expect(posted[0]?.text).toContain("checkout broke");
    expect(posted[0]?.text).toContain(`/archives/${place.channel}/p${first.replace(".", "")}`);
    expect(posted[0]?.text).not.toContain("late");
    const [summaryCall, ...moreCalls] = await modelRequests(tag);
    expect(moreCalls).toEqual([]);
    expect(JSON.stringify(summaryCall)).toContain("rolling back to 4.12");
    expect(JSON.stringify([summaryCall, posted])).not.toContain("4 Elm Street");

    // The next day nobody said anything: its delivery comes, and posts nothing.
    const silent = await until(slot + DAY_MS + 60_000);
    expect(silent.map((d) => d.at)).toEqual([slot + DAY_MS]);
    expect(await digestsIn(place)).toHaveLength(1);
    expect(await modelRequests(tag)).toHaveLength(1);
  });

  it("refuses a bad time or zone and changes nothing; off deletes the schedule at QStash", async () => {
    const place = await installedPlace();
    expect(await slash(place, "UADMIN", "digest daily 25:00")).toMatch(/"25:00" is not a time of day/);
    expect(await slash(place, "UADMIN", "digest daily 09:00 Mars/Olympus")).toMatch(/not a time zone/);
    expect(await slash(place, "UADMIN", "digest weekly fry 09:00")).toMatch(/not a weekday/);
    expect(await scheduleOf(place)).toEqual([]);
    expect(await slash(place, "UMEMBER", "digest daily 09:00")).toMatch(/^Only a workspace or server admin/);
    expect(await scheduleOf(place)).toEqual([]);

    await slash(place, "UADMIN", "digest daily 07:30 Asia/Tokyo");
    expect((await scheduleOf(place)).map((s) => s.cron)).toEqual(["CRON_TZ=Asia/Tokyo 30 7 * * *"]);
    // Set again at another time: the same schedule, overwritten.
    await slash(place, "UADMIN", "digest daily 08:00 Asia/Tokyo");
    expect((await scheduleOf(place)).map((s) => s.cron)).toEqual(["CRON_TZ=Asia/Tokyo 0 8 * * *"]);
    expect(await slash(place, "UREADER", "digest status")).toMatch(/^Digest: daily at 08:00 \(Asia\/Tokyo\)\./);

    expect(await slash(place, "UADMIN", "digest off")).toBe("Done. The digest is off.");
    expect(await scheduleOf(place)).toEqual([]);
    expect(await slash(place, "UREADER", "digest status")).toBe("No digest is scheduled here.");
  });
  it("posts a slot the Worker missed once, late and marked so", async () => {
    const place = await installedPlace();
    const tag = `late-${place.id}`;
    await slash(place, "UADMIN", "digest weekly fri 16:00");
    const slot = (await scheduleOf(place))[0]?.nextScheduleTime ?? 0;
    expect(new Date(slot).getUTCDay()).toBe(5);
    await inSlack(place, "UCAROL", `who owns the billing bug? ${tag}`, slot - 7_200_000);
    await scriptModel({ match: tag, reply: "Open questions:\n- who owns the billing bug [1]" });
    // The Worker is down through QStash's first three attempts (its reads of Slack fail), back for the last.
    const fail = await fetch(`${SLACK_FAKE_ORIGIN}/__fail`, {
      method: "POST",
      body: JSON.stringify({
        fault: "refuse",
        path: "/conversations.history",
        bodyContains: place.channel,
        status: 500,
        times: 3,
      }),
    });
    expect(fail.ok).toBe(true);
    // The Worker's clock goes where QStash's will be (its signature checks see that time too: this test comes last).
    clock.passes(Math.max(0, slot + ALL_RETRIES_MS - clock.now()));

    const deliveries = await until(slot + ALL_RETRIES_MS + 60_000);
    // (The first test's daily digest comes too, each day, and posts nothing.)
    const missed = deliveries.filter((d) => d.status !== 200 || d.retried > 0);
    expect(missed.map((d) => [d.retried, d.status])).toEqual([
      [0, 500],
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    const posted = await digestsIn(place);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.text).toMatch(/late: it was due at \d{4}-\d\d-\d\d 16:00 UTC/);
    expect(posted[0]?.text).toContain("who owns the billing bug");
  });
});
