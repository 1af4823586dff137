/**
 * @module
 * QStash schedules in the stand-in, driven by the real `@upstash/qstash` Client on a lane with a virtual clock:
 * create (with `CRON_TZ=`), list, get, pause, resume, overwrite and delete behave as QStash documents them, each slot
 * is delivered at its cron time, signed so that the real Receiver accepts it and carrying `Upstash-Schedule-Id`, and
 * a malformed cron or zone is refused with QStash's `Invalid cron expression …` and creates nothing.
 */
import { randomUUID } from "node:crypto";
import { Client, Receiver } from "@upstash/qstash";
import { afterAll, describe, expect, inject, it } from "vitest";
import { nextAfter, parseCron } from "../../dev/qstash/cron.ts";
import { DEV_CURRENT_SIGNING_KEY, DEV_NEXT_SIGNING_KEY, DEV_TOKEN } from "../../dev/qstash/server.ts";
import { advanceClock, qstashLaneUrl, readClock } from "../support/qstash-clock.ts";
import { closeRecordingEndpoints, header, recordingEndpoint } from "../support/recording-endpoint.ts";

const DAY_MS = 86_400_000;
const receiver = new Receiver({ currentSigningKey: DEV_CURRENT_SIGNING_KEY, nextSigningKey: DEV_NEXT_SIGNING_KEY });

afterAll(closeRecordingEndpoints);

async function freshLane(): Promise<{ laneUrl: string; client: Client; start: number }> {
  const laneUrl = qstashLaneUrl(inject("qstashProdUrl"), `schedules-${randomUUID()}`);
  const { now } = await readClock(laneUrl);
  return { laneUrl, client: new Client({ baseUrl: laneUrl, token: DEV_TOKEN, devMode: false }), start: now };
}

/** The first `hh:mm` in `zone` after `after`, found from the zone's offset (not by a cron parser). */
function nextLocalTime(after: number, zone: string, hh: number, mm: number): number {
  for (let day = 0; day < 3; day += 1) {
    const probe = new Date(after + day * DAY_MS);
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-US", { timeZone: zone, year: "numeric", month: "numeric", day: "numeric" })
        .formatToParts(probe)
        .map((p) => [p.type, Number(p.value)]),
    );
    const naive = Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, hh, mm);
    const offset = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
      .formatToParts(naive)
      .find((p) => p.type === "timeZoneName")?.value;
    const [, sign, h, m] = /GMT([+-])(\d\d):(\d\d)/.exec(offset ?? "") ?? [undefined, "+", "00", "00"];
    const at = naive - (sign === "-" ? -1 : 1) * (Number(h) * 60 + Number(m)) * 60_000;
    if (at > after) return at;
  }
  throw new Error("no local time found");
}

describe("QStash schedules in the stand-in", () => {
  it("delivers a CRON_TZ daily schedule at 09:00 Europe/Berlin each day, signed, with its schedule id", async () => {
    const { laneUrl, client, start } = await freshLane();
    const destination = await recordingEndpoint(undefined, "/jobs/digest");
    const cron = "CRON_TZ=Europe/Berlin 0 9 * * *";
    const { scheduleId } = await client.schedules.create({ destination: destination.url, cron, body: '{"d":1}' });
    expect(scheduleId).toMatch(/^scd_/);

    const first = nextLocalTime(start, "Europe/Berlin", 9, 0);
    const schedule = await client.schedules.get(scheduleId);
    expect(schedule).toMatchObject({ scheduleId, cron, destination: destination.url, isPaused: false });
    expect(schedule.nextScheduleTime).toBe(first);
    expect((await client.schedules.list()).map((s) => s.scheduleId)).toEqual([scheduleId]);

    expect((await advanceClock(laneUrl, { to: first - 1 })).deliveries).toEqual([]);
    const slot = await advanceClock(laneUrl, { to: first });
    expect(slot.deliveries).toMatchObject([{ at: first, status: 200, outcome: "done", retried: 0 }]);
    const delivery = destination.received[0];
    expect(header(delivery, "upstash-schedule-id")).toBe(scheduleId);
    expect(delivery?.body).toBe('{"d":1}');
    await expect(
      receiver.verify({
        signature: header(delivery, "upstash-signature"),
        body: delivery?.body ?? "",
        url: destination.url,
      }),
    ).resolves.toBe(true);
    expect(await client.schedules.get(scheduleId)).toMatchObject({
      lastScheduleTime: first,
      nextScheduleTime: nextLocalTime(first, "Europe/Berlin", 9, 0),
    });

    const days = await advanceClock(laneUrl, { to: first + 3 * DAY_MS });
    expect(days.deliveries.map((d) => d.at)).toEqual(
      [1, 2, 3].map((n) => nextLocalTime(first + (n - 1) * DAY_MS, "Europe/Berlin", 9, 0)),
    );
    expect(destination.received).toHaveLength(4);
  });

  it("delivers nothing while paused, resumes at the next slot, and stops for good once deleted", async () => {
    const { laneUrl, client, start } = await freshLane();
    const destination = await recordingEndpoint(undefined, "/jobs/digest");
    const { scheduleId } = await client.schedules.create({ destination: destination.url, cron: "30 16 * * fri" });
    await client.schedules.pause({ schedule: scheduleId });
    expect(await client.schedules.get(scheduleId)).toMatchObject({ isPaused: true });
    expect((await advanceClock(laneUrl, { to: start + 8 * DAY_MS })).deliveries).toEqual([]);

    await client.schedules.resume({ schedule: scheduleId });
    const resumed = await client.schedules.get(scheduleId);
    expect(resumed.isPaused).toBe(false);
    const next = resumed.nextScheduleTime ?? 0;
    expect(new Date(next).getUTCDay()).toBe(5);
    expect([new Date(next).getUTCHours(), new Date(next).getUTCMinutes()]).toEqual([16, 30]);
    expect(next - (start + 8 * DAY_MS)).toBeLessThanOrEqual(7 * DAY_MS);
    expect((await advanceClock(laneUrl, { to: next })).deliveries).toHaveLength(1);

    await client.schedules.delete(scheduleId);
    expect(await client.schedules.list()).toEqual([]);
    await expect(client.schedules.get(scheduleId)).rejects.toThrow(/schedule not found/);
    const after = await advanceClock(laneUrl, { to: next + 15 * DAY_MS });
    expect(after.deliveries).toEqual([]);
    expect(after.nextDueAt).toBeNull();
    expect(destination.received).toHaveLength(1);
  });

  it("overwrites a schedule created again with the same id: only the new cron fires", async () => {
    const { laneUrl, client, start } = await freshLane();
    const destination = await recordingEndpoint(undefined, "/jobs/digest");
    const { scheduleId } = await client.schedules.create({ destination: destination.url, cron: "0 6 * * *" });
    await client.schedules.create({ destination: destination.url, cron: "0 18 * * *", scheduleId });
    expect((await client.schedules.list()).map((s) => s.cron)).toEqual(["0 18 * * *"]);
    const { deliveries } = await advanceClock(laneUrl, { to: start + 2 * DAY_MS });
    expect(deliveries.map((d) => new Date(d.at).getUTCHours())).toEqual([18, 18]);
  });

  it("refuses a malformed cron or an unknown zone as QStash does, and creates nothing", async () => {
    const { client } = await freshLane();
    const destination = await recordingEndpoint(undefined, "/jobs/digest");
    const refusals: [string, RegExp][] = [
      ["0 9 * *", /Invalid cron expression expected exactly 5 fields, found 4/],
      ["61 9 * * *", /Invalid cron expression end of range \(61\) above maximum \(59\)/],
      ["0 nine * * *", /Invalid cron expression failed to parse int from nine/],
      ["CRON_TZ=Europe/Nowhere 0 9 * * *", /Invalid cron expression provided bad location Europe\/Nowhere/],
      ["", /Invalid cron expression empty spec string/],
    ];
    for (const [cron, error] of refusals) {
      await expect(client.schedules.create({ destination: destination.url, cron })).rejects.toThrow(error);
    }
    expect(await client.schedules.list()).toEqual([]);
  });

  it("keeps a zoned slot at its local time across a summer-time change", () => {
    const berlin = parseCron("CRON_TZ=Europe/Berlin 0 9 * * *");
    expect(new Date(nextAfter(berlin, Date.UTC(2027, 2, 27, 12))).toISOString()).toBe("2027-03-28T07:00:00.000Z");
    expect(new Date(nextAfter(berlin, Date.UTC(2027, 9, 30, 12))).toISOString()).toBe("2027-10-31T08:00:00.000Z");
    const weekly = parseCron("CRON_TZ=America/New_York 0 16 * * FRI");
    expect(new Date(nextAfter(weekly, Date.UTC(2027, 0, 1, 22))).toISOString()).toBe("2027-01-08T21:00:00.000Z");
  });
});
