/**
 * @module
 * For the digest suites (workerd, at production timing): a Slack channel in a workspace of its own with an admin,
 * `/parley …` used there as Slack posts it, messages Slack has at a given time, the digests posted there, the
 * place's schedules at the suite's QStash lane, the stand-in's clock moved to a time, and a person's "forget me".
 */
import { Client } from "@upstash/qstash";
import { expect } from "vitest";
import { slackHeaders } from "../../dev/signers/slack.ts";
import type { ProdTimingSuite } from "./prod-timing.ts";
import { readClock } from "./qstash-clock.ts";
import { installWorkspace, SLACK_FAKE_ORIGIN } from "./slack-install.ts";
import { FORGET_CONFIRMATION } from "../../lib/notices.ts";
import {
  distinctSlackTs,
  newSlackPlace,
  SLACK_SIGNING_SECRET,
  signedSlackRequest,
  slackMessageEvent,
  slackPosts,
} from "./slack.ts";
import { callWorker } from "./worker.ts";

export type DigestPlace = ReturnType<typeof newSlackPlace>;

export function digestKit(kit: ProdTimingSuite, suite: string) {
  const digestPath = `/t/${suite}/jobs/digest`;
  const qstash = new Client({ baseUrl: kit.qstashUrl, token: String(kit.env.QSTASH_TOKEN), devMode: false });
  return {
    digestPath,
    /** A channel in a workspace installed for it alone (with `scope`, the scopes it granted), UADMIN an admin. */
    async installedPlace(scope?: string): Promise<DigestPlace> {
      const place = newSlackPlace("DG");
      await installWorkspace(kit.env, { id: place.team, name: `Digest ${place.id}`, ...(scope ? { scope } : {}) });
      const res = await fetch(`${SLACK_FAKE_ORIGIN}/__roles`, {
        method: "POST",
        body: JSON.stringify({ team: place.team, admins: ["UADMIN"] }),
      });
      expect(res.status).toBe(200);
      return place;
    },
    /** `/parley <text>` in the place, as Slack posts it, signed; the ephemeral answer's text. */
    async slash(place: DigestPlace, user: string, text: string): Promise<string> {
      const body = new URLSearchParams({
        team_id: place.team,
        channel_id: place.channel,
        user_id: user,
        command: "/parley",
        text,
      }).toString();
      const headers = { "Content-Type": "application/x-www-form-urlencoded" };
      const res = await callWorker(
        kit.env,
        new Request("https://bot.test/slack/commands", {
          method: "POST",
          headers: { ...headers, ...(await slackHeaders(SLACK_SIGNING_SECRET, body)) },
          body,
        }),
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as { text: string }).text;
    },
    /** `user` says "forget me" in their DM with the bot (one of this place's), and the bot confirms it there. */
    async forgetMe(place: DigestPlace, user: string) {
      const dm = { team: place.team, channel: `D${place.channel.slice(1)}${user.slice(1)}` };
      const forget = slackMessageEvent({ ...dm, user, text: "forget me", ts: distinctSlackTs(), channelType: "im" });
      expect((await callWorker(kit.env, await signedSlackRequest(forget.body))).status).toBe(200);
      for (let round = 0; round < 8 && (await kit.deliveriesSettled()).deliveries.length > 0; round++);
      expect((await slackPosts(dm.channel)).map((p) => p.text)).toEqual([FORGET_CONFIRMATION]);
    },
    /** People join or leave a channel of the place's workspace, as Slack's membership says. */
    async members(place: DigestPlace, channel: string, change: { join?: string[]; leave?: string[] }) {
      const res = await fetch(`${SLACK_FAKE_ORIGIN}/__members`, {
        method: "POST",
        body: JSON.stringify({ team: place.team, channel, ...change }),
      });
      expect(res.status).toBe(200);
    },
    /** A message Slack has (the bot never saw it arrive), written at `at` (ms); its ts. */
    async inSlack(place: DigestPlace, user: string, text: string, at: number): Promise<string> {
      const ts = `${Math.floor(at / 1000)}.000100`;
      const res = await fetch(`${SLACK_FAKE_ORIGIN}/__messages`, {
        method: "POST",
        body: JSON.stringify({ team: place.team, channel: place.channel, user, text, ts }),
      });
      expect(res.ok).toBe(true);
      return ts;
    },
    /** The digests posted in the place. */
    digestsIn: async (place: DigestPlace) =>
      (await slackPosts(place.channel)).filter((p) => String(p.text ?? "").includes("Digest")),
    /**
     * The place's digest schedules (or, with `path` the personal digests' route, its tenant's people's) at the
     * stand-in (its tenant is in the clear part of the sealed job).
     */
    async schedulesOf(place: DigestPlace, path = digestPath) {
      const all = await qstash.schedules.list();
      return all.filter((s) => s.destination.endsWith(path) && String(s.body ?? "").includes(place.team));
    },
    /** Lets the stand-in's clock reach `to`, answering the digest deliveries made meanwhile (to `path`). */
    async until(to: number, path = digestPath) {
      const { now } = await readClock(kit.qstashUrl);
      const passed = await kit.timePasses(Math.max(0, to - now));
      return passed.deliveries.filter((d) => d.path === path);
    },
  };
}
