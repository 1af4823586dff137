/**
 * @module
 * A person's own digest on Slack at production timing, on the QStash stand-in's controllable clock (issue #43):
 * `/parley digest me daily 08:30` creates one QStash schedule for the person, whose delivery sends them one DM with a
 * section per public channel they are a member of, as Slack's users.conversations says at that run: never a private
 * channel's talk (even one they are in), nor a public channel's they are not in; a redelivery sends nothing more;
 * and a channel they left is dropped at the next run. `me off` deletes the schedule at the stand-in, and so does
 * "forget me": the schedule names the person, and a forgotten person leaves nothing that does.
 */
import { describe, expect, it } from "vitest";
import { digestKit } from "../support/digests.ts";
import { scriptFault } from "../support/fault-control.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import { ALL_RETRIES_MS, prodTimingSuite } from "../support/prod-timing.ts";
import { SLACK_BOT_SCOPES } from "../../lib/platforms/slack/oauth/authorize.ts";
import { INSTALLABLE } from "../support/slack-install.ts";
import { slackPosts } from "../support/slack.ts";
import { pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "digest-personal";
const DAY_MS = 86_400_000;
const kit = prodTimingSuite(SUITE, INSTALLABLE);
const { installedPlace, slash, inSlack, members, schedulesOf, until, forgetMe } = digestKit(kit, SUITE);
const PERSONAL_PATH = `/t/${SUITE}/jobs/digest_me`;

pumpJobsDuringSuite(kit.env, SUITE);

describe("a person's own digest on Slack", () => {
  it("sends one DM of their public channels, never a private channel's talk, and drops a channel they left", async () => {
    const place = await installedPlace();
    const tag = `me-${place.id}`;
    const person = `UP${place.id}`;
    const dm = `D${person.slice(1)}`;
    const other = { ...place, channel: `C2${place.id}` };
    const secret = { ...place, channel: `GS${place.id}` };
    // The person is in #main (public) and in a private channel; #other is public, and they are not in it.
    await members(place, place.channel, { join: [person, "UALICE"] });
    await members(place, secret.channel, { join: [person, "UALICE"] });
    await members(place, other.channel, { join: ["UALICE"] });

    const answer = await slash(place, person, "digest me daily 08:30");
    expect(answer).toMatch(/^Done\. Your digest, in a DM: daily at 08:30 \(UTC\)\. Next: /);
    const [schedule, ...more] = await schedulesOf(place, PERSONAL_PATH);
    expect(more).toEqual([]);
    expect(schedule?.cron).toBe("CRON_TZ=UTC 30 8 * * *");
    const slot = schedule?.nextScheduleTime ?? 0;

    const first = await inSlack(place, "UALICE", `the release moves to thursday ${tag}`, slot - 3_600_000);
    await inSlack(secret, "UALICE", `the layoffs list is final ${tag}`, slot - 3_000_000);
    await inSlack(other, "UALICE", `the other team's offsite ${tag}`, slot - 2_400_000);
    await scriptModel({ match: tag, reply: "Decisions:\n- the release moves to thursday [1]" });
    // The Worker answers the slot's first delivery, and QStash delivers it again as if it had not.
    await scriptFault(kit.qstashUrl, { fault: "lose_answer", path: PERSONAL_PATH, times: 1 });

    const deliveries = await until(slot + ALL_RETRIES_MS, PERSONAL_PATH);
    expect(deliveries.map((d) => d.retried)).toEqual([0, 1]);
    expect(deliveries.at(-1)?.status).toBe(200);
    const sent = await slackPosts(dm);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.text).toContain("Your digest");
    expect(sent[0]?.text).toContain(`#${place.channel.toLowerCase()}`);
    expect(sent[0]?.text).toContain(`/archives/${place.channel}/p${first.replace(".", "")}`);
    const calls = await modelRequests(tag);
    expect(calls).toHaveLength(1);
    expect(JSON.stringify(calls)).toContain("the release moves to thursday");
    // Neither the private channel's talk nor a channel they are not in reaches the model or the DM.
    expect(JSON.stringify([calls, sent])).not.toContain("layoffs");
    expect(JSON.stringify([calls, sent])).not.toContain("offsite");
    expect(await slackPosts(secret.channel)).toEqual([]);

    // They leave #main: the next day's talk there is not theirs to get, and nothing else was said.
    await members(place, place.channel, { leave: [person] });
    await inSlack(place, "UALICE", `the release slips again ${tag}`, slot + DAY_MS - 3_600_000);
    const next = await until(slot + DAY_MS + 60_000, PERSONAL_PATH);
    expect(next.map((d) => d.at)).toEqual([slot + DAY_MS]);
    expect(await slackPosts(dm)).toHaveLength(1);
    expect(JSON.stringify(await modelRequests(tag))).not.toContain("slips again");

    expect(await slash(place, person, "digest me status")).toMatch(/^Digest: daily at 08:30 \(UTC\)\./);
    expect(await slash(place, person, "digest me off")).toBe("Done. Your digest is off.");
    expect(await schedulesOf(place, PERSONAL_PATH)).toEqual([]);
    expect(await slash(place, person, "digest me status")).toBe("You have no digest of your own.");
  });

  it("ends the person's own digest when they ask to be forgotten", async () => {
    const place = await installedPlace();
    const person = `UF${place.id}`;
    await members(place, place.channel, { join: [person] });
    expect(await slash(place, person, "digest me weekly fri 16:00")).toMatch(/^Done\. Your digest, in a DM: /);
    expect(await schedulesOf(place, PERSONAL_PATH)).toHaveLength(1);

    await forgetMe(place, person);
    expect(await schedulesOf(place, PERSONAL_PATH)).toEqual([]);
    expect(await slash(place, person, "digest me status")).toBe("You have no digest of your own.");
  });

  it("ends a slot at once, with nothing sent, where the workspace has not granted the DM's scope", async () => {
    const place = await installedPlace(SLACK_BOT_SCOPES.filter((s) => s !== "im:write").join(","));
    const tag = `noim-${place.id}`;
    const person = `UN${place.id}`;
    await members(place, place.channel, { join: [person, "UALICE"] });
    expect(await slash(place, person, "digest me daily 07:00")).toMatch(/^Done\. Your digest, in a DM: /);
    const [schedule] = await schedulesOf(place, PERSONAL_PATH);
    const slot = schedule?.nextScheduleTime ?? 0;
    await inSlack(place, "UALICE", `the audit starts monday ${tag}`, slot - 3_600_000);
    await scriptModel({ match: tag, reply: "Decisions:\n- the audit starts monday [1]" });

    // Slack refuses conversations.open (missing_scope) however often it is asked: one delivery, answered, no retry.
    const deliveries = await until(slot + ALL_RETRIES_MS, PERSONAL_PATH);
    expect(deliveries.map((d) => [d.retried, d.status])).toEqual([[0, 200]]);
    expect(await slackPosts(`D${person.slice(1)}`)).toEqual([]);
  });
});
