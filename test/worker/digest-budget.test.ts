/**
 * @module
 * A digest's limits on Slack (issue #43): one over the tenant's daily token budget is skipped (no post, no model
 * call) and the admin view says so in one line; the workspace's uninstall deletes its digest schedules at QStash
 * before its keys go, and the bot removed from a channel (`channel_left`) deletes that channel's: nothing fires into
 * a place the bot has left.
 */
import { describe, expect, it } from "vitest";
import { signedSlackRequest } from "../support/slack.ts";
import { digestKit } from "../support/digests.ts";
import { modelRequests } from "../support/model.ts";
import { ALL_RETRIES_MS, prodTimingSuite } from "../support/prod-timing.ts";
import { INSTALLABLE } from "../support/slack-install.ts";
import { callWorker, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "digestcap";
const DAY_MS = 86_400_000;
const ADMIN_TOKEN = "admin-token-for-digest-limits-0123456789";
/** Less than one summary's tokens: once a digest has used it up, the day's next call is refused. */
const kit = prodTimingSuite(SUITE, { ...INSTALLABLE, TENANT_DAILY_TOKEN_BUDGET: "100", ADMIN_TOKEN });
const { installedPlace, slash, inSlack, digestsIn, schedulesOf, until } = digestKit(kit, SUITE);

pumpJobsDuringSuite(kit.env, SUITE);

async function adminView(place: { team: string; channel: string }): Promise<Record<string, unknown>> {
  const key = encodeURIComponent(`slack|${place.team}|${place.channel}|`);
  const res = await callWorker(
    kit.env,
    new Request(`https://bot.test/admin/conversations/${key}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } }),
  );
  return (await res.json()) as Record<string, unknown>;
}

/** A Slack event of the app's presence (as in Slack's reference: `app_uninstalled`, `channel_left`), signed. */
async function lifecycleEvent(place: { team: string; id: string }, event: object): Promise<Response> {
  const body = JSON.stringify({
    token: "x",
    team_id: place.team,
    api_app_id: "A0PARLEY",
    event,
    type: "event_callback",
    event_id: `Ev${place.id}${JSON.stringify(event).length}`,
    event_time: 1,
  });
  return callWorker(kit.env, await signedSlackRequest(body));
}

describe("a digest's limits", () => {
  it("skips a digest over the tenant's budget, with one line in the admin view", async () => {
    const place = await installedPlace();
    const tag = `cap-${place.id}`;
    await slash(place, "UADMIN", "digest daily 18:00");
    const slot = (await schedulesOf(place))[0]?.nextScheduleTime ?? 0;
    // The first digest spends the day's budget (a call is refused once the tenant has used it up) ...
    await inSlack(place, "UALICE", `the release slips a week ${tag}`, slot - 600_000);
    await until(slot + 60_000);
    expect(await digestsIn(place)).toHaveLength(1);
    // ... so the next day's, the Worker's day being the same, is skipped: no call, no post.
    await inSlack(place, "UBOB", `and QA starts on Monday ${tag}-2`, slot + DAY_MS - 600_000);
    const deliveries = await until(slot + DAY_MS + ALL_RETRIES_MS);
    expect(deliveries.map((d) => d.status)).toEqual([200]);
    expect(await digestsIn(place)).toHaveLength(1);
    expect(await modelRequests(`${tag}-2`)).toEqual([]);
    expect((await adminView(place)).digest).toEqual({
      last: { slot: slot + DAY_MS, outcome: "over_budget", late: false },
    });
  });

  it("deletes the workspace's digest schedules at QStash when the app is uninstalled", async () => {
    const place = await installedPlace();
    await slash(place, "UADMIN", "digest weekly mon 09:00 America/New_York");
    expect(await schedulesOf(place)).toHaveLength(1);
    expect((await lifecycleEvent(place, { type: "app_uninstalled" })).status).toBe(200);
    await kit.deliveriesSettled();
    expect(await schedulesOf(place)).toEqual([]);
  });

  it("deletes a channel's digest schedule when the bot is removed from the channel", async () => {
    const place = await installedPlace();
    await slash(place, "UADMIN", "digest daily 12:00");
    expect(await schedulesOf(place)).toHaveLength(1);
    const left = { type: "channel_left", channel: place.channel, actor_id: "UADMIN", event_ts: "1664827321.000300" };
    expect((await lifecycleEvent(place, left)).status).toBe(200);
    expect(await schedulesOf(place)).toEqual([]);
    expect(await slash(place, "UADMIN", "digest status")).toBe("No digest is scheduled here.");
  });
});
