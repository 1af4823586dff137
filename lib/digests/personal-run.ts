/**
 * @module
 * A person's own digest's delivery (POST /jobs/digest_me, from their QStash schedule): one DM with a section per
 * public channel they are a member of (the platform lists them at the slot's first attempt, ./capability.ts, so a
 * channel they left is gone at the next run; at most DIGEST_MAX_PLACES), each read as a place's digest is
 * (./run.ts) but for the person: since the last digest, at most one period back, and only what was said after
 * their own last message there; forgotten people left out, and every read made as for them (a place they may not
 * read refuses it, and its section is left out). Each section's summary counts in the tenant's budget. One DM per
 * slot whatever QStash redelivers (the slot's record, ./personal.ts), late once when the Worker was down, nothing
 * when nothing was said.
 */
import { CatchUpRefused, readPage } from "../catch-up/pages.ts";
import type { CatchUpProgress } from "../catch-up/progress.ts";
import { GiveUp } from "../errors.ts";
import { type JobScope, jobScope } from "../jobs/scope.ts";
import type { ReplyTarget } from "../message.ts";
import type { PersonalDigestSide } from "../platforms/personal-digests.ts";
import type { JobPayload } from "../queue/job.ts";
import type { PersonalPlace } from "./capability.ts";
import type { PersonalSlot } from "./personal.ts";
import { type DigestPlan, periodMs } from "./plan.ts";
import {
  deliveredSlot,
  type DigestDelivery,
  type DigestRunOutcome,
  heading,
  LATE_AFTER_MS,
  onceForSlot,
  post,
  summarize,
} from "./run.ts";
import type { DigestOutcome, DigestSlot } from "./slots.ts";

/** A personal digest's delivery: the schedule it comes from, and the platform's side of the person's places. */
export interface PersonalDelivery extends DigestDelivery {
  personal: PersonalDigestSide;
}

export async function runPersonalDigestJob(scope: JobScope, delivery: PersonalDelivery): Promise<DigestRunOutcome> {
  const { rt, job } = scope;
  const digest = await rt.personalDigests.get(job.key, job.trigger.authorId);
  const slot = await deliveredSlot(scope, digest?.scheduleId, delivery);
  if (!digest || slot === undefined) return "not_scheduled";
  const { scheduleId, plan } = digest;
  return onceForSlot(scope, scheduleId, slot, rt.personalDigests, (known) =>
    runSlot(scope, delivery.personal, { scheduleId, slot, plan }, known),
  );
}

interface Slot {
  scheduleId: string;
  slot: number;
  plan: DigestPlan;
}

async function runSlot(
  scope: JobScope,
  side: PersonalDigestSide,
  { scheduleId, slot, plan }: Slot,
  known: PersonalSlot | null,
): Promise<DigestOutcome> {
  const { rt, job } = scope;
  const since = Math.max(slot - periodMs(plan), (await rt.digests.lastSlot(scheduleId)) ?? 0);
  const unread = (): CatchUpProgress => ({
    since,
    before: { id: `${job.trigger.id}-${slot}`, ts: slot },
    pages: 0,
    messages: [],
    notes: [],
  });
  let record: PersonalSlot = known ?? {
    late: rt.now() - slot > LATE_AFTER_MS,
    progress: { ...unread(), before: null },
    posted: [],
    sections: {},
  };
  const save = () => rt.personalDigests.save(scheduleId, slot, record);
  const finish = async (outcome: DigestOutcome) => {
    await rt.personalDigests.finish(scheduleId, slot, record, outcome);
    await rt.digests.ended(scheduleId, slot);
    return outcome;
  };
  if (!record.places) {
    const places = await side.places(job);
    if (places === null) return finish("refused");
    record = { ...record, places: places.slice(0, rt.settings.DIGEST_MAX_PLACES) };
    await save();
  }
  const places = record.places as PersonalPlace[];
  if (record.text === undefined) {
    for (const place of places) {
      const start = record.sections[place.channel] ?? { late: false, progress: unread(), posted: [] };
      if (start.outcome) continue;
      await section(scope, place, slot, start, async (next) => {
        record = { ...record, sections: { ...record.sections, [place.channel]: next } };
        await save();
      });
    }
    const parts = places.flatMap((p) => {
      const text = record.sections[p.channel]?.text;
      return text ? [`**#${p.name}**\n\n${text}`] : [];
    });
    if (parts.length === 0) {
      const over = Object.values(record.sections).some((s) => s.outcome === "over_budget");
      return finish(over ? "over_budget" : "nothing_said");
    }
    record = { ...record, text: parts.join("\n\n") };
    await save();
  }
  // A DM the platform will never open (Slack's `im:write` not yet approved by a workspace installed before it) ends
  // the slot with one line; QStash's retries would only meet the same refusal.
  const dm =
    record.dm ??
    (await side.dm(job).catch((err: unknown) => {
      if (!(err instanceof GiveUp)) throw err;
      rt.log.warn("digest_dm_refused", { platform: job.key.platform, tenant: job.key.tenant, reason: err.code });
      return null;
    }));
  if (!dm) return finish("refused");
  record = { ...record, dm };
  await save();
  const dmJob: JobPayload = { ...job, key: { ...job.key, channel: dm.channel }, replyTarget: dm.target as ReplyTarget };
  const dmScope = await jobScope(rt, { ...dmJob, kind: scope.kind }, scope.replier);
  const title = heading(slot, plan, record.late).replace("**Digest**", "**Your digest**");
  await post(dmScope, `${scheduleId}-${slot}`, title, record, async (next) => {
    record = { ...record, ...next };
    await save();
  });
  return finish("posted");
}

/**
 * One channel's section: read as the person (after their own last message there) and summarized, each page and
 * note saved; a read the platform refuses (the person may not read it, or the bot is not in it) leaves it out.
 */
async function section(
  scope: JobScope,
  place: PersonalPlace,
  slot: number,
  start: DigestSlot,
  update: (section: DigestSlot) => Promise<void>,
): Promise<void> {
  const { job } = scope;
  const placeJob: JobPayload = {
    ...job,
    key: { platform: job.key.platform, tenant: job.key.tenant, channel: place.channel },
    conversationId: `digest-${place.channel}`,
    trigger: { ...job.trigger, ts: slot },
    replyTarget: place.target as ReplyTarget,
  };
  const sub = await jobScope(scope.rt, { ...placeJob, kind: scope.kind }, scope.replier);
  let current = start;
  const save = () => update(current);
  try {
    for (let before = current.progress.before; before; before = current.progress.before) {
      current = { ...current, progress: await readPage(sub, current.progress, before, true) };
      await save();
    }
  } catch (err) {
    if (!(err instanceof CatchUpRefused) || err.missing === null) throw err;
    sub.rt.log.info("digest_place_refused", { ...sub.where, missing: err.missing });
    current = { ...current, outcome: "refused" };
    return save();
  }
  const written =
    current.text === undefined
      ? await summarize(sub, current, save, (next) => {
          current = next;
        })
      : "written";
  current = { ...current, outcome: written === "written" ? "posted" : written };
  await save();
}
