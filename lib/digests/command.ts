/**
 * @module
 * `/parley digest …` run against the place: a digest is one QStash schedule per place (lib/queue/schedules.ts, its
 * id the same for the place every time), with the job it delivers sealed into it (who set it, the place, where to
 * post and as which bot), its id and plan kept in the place's settings. A change asks `mayChange` first, like every
 * `/parley` setting; a bad time, weekday or zone is answered and changes nothing. The schedule is created before
 * the settings name it, and the settings cleared before the schedule is deleted, so that a failure in between
 * leaves at worst a schedule whose deliveries find no digest in the settings and do nothing (lib/digests/run.ts).
 * The bot removed from the place (`placeLeft`) turns its digest off the same way.
 */
import type { ConversationKey, ReplyTarget } from "../message.ts";
import { placeId } from "../keys.ts";
import type { JobOf } from "../queue/job.ts";
import { botIdentity, type Runtime } from "../runtime.ts";
import { cronOf, type DigestCommand, type DigestPlan, describePlan, DIGEST_USAGE } from "./plan.ts";

/** What the command's route knows of where and by whom it was used: what the digest job needs to post there. */
export interface DigestOrigin {
  replyTarget: ReplyTarget;
  /** The bot's own user id on the platform (its mentions read as its name); "" where the route cannot tell. */
  botUserId: string;
  /** Who set it: the digest reads only what they may read. */
  userId: string;
}

const NOT_ALLOWED = "Only a workspace or server admin, or whoever may manage this channel, can change the digest.";
const NO_DIGEST = "No digest is scheduled here.";

/** The answer's text, and whether anything changed. */
export async function runDigestCommand(
  rt: Runtime,
  place: ConversationKey,
  command: DigestCommand,
  mayChange: () => Promise<boolean>,
  origin: DigestOrigin,
): Promise<{ text: string; changed: boolean }> {
  // A thread has its channel's settings, and its channel's digest.
  const channel: ConversationKey = { platform: place.platform, tenant: place.tenant, channel: place.channel };
  if (command.kind === "problem") return { text: `${command.problem}. Usage: /parley ${DIGEST_USAGE}`, changed: false };
  const settings = await rt.placeSettings.read(channel);
  if (command.kind === "status") return { text: await digestStatus(rt, settings.digest, NO_DIGEST), changed: false };
  if (!(await mayChange()))
    return { text: `${NOT_ALLOWED} ${await digestStatus(rt, settings.digest, NO_DIGEST)}`, changed: false };
  if (command.kind === "off") {
    if (!settings.digest) return { text: NO_DIGEST, changed: false };
    await turnOff(rt, channel, settings.digest.scheduleId);
    return { text: "Done. The digest is off.", changed: true };
  }
  const scheduleId = await rt.schedules.idFor(`digest|${placeId(channel)}`);
  await rt.digests.enlist(channel, scheduleId);
  await rt.schedules.create(scheduleId, digestJob(rt, channel, origin, "digest"), cronOf(command.plan));
  await rt.placeSettings.update(channel, { digest: { scheduleId, plan: command.plan } });
  return { text: `Done. ${await digestStatus(rt, { scheduleId, plan: command.plan }, NO_DIGEST)}`, changed: true };
}

/** The bot was removed from `place`: its digest, if it has one, is turned off (a redelivery finds none left). */
export async function placeLeft(rt: Runtime, place: ConversationKey): Promise<void> {
  const digest = (await rt.placeSettings.read(place)).digest;
  rt.log.info("place_left", { platform: place.platform, tenant: place.tenant, digest: digest !== undefined });
  if (digest) await turnOff(rt, place, digest.scheduleId);
}

/** The place's digest deleted: its settings first, then its schedule at QStash, then where it would read from. */
async function turnOff(rt: Runtime, channel: ConversationKey, scheduleId: string): Promise<void> {
  await rt.placeSettings.update(channel, { digest: undefined });
  await rt.schedules.delete(scheduleId);
  await rt.digests.forget(channel, scheduleId);
}

/** A digest's plan and its next time, as QStash has it; `none` when there is no digest. */
export async function digestStatus(
  rt: Runtime,
  digest: { scheduleId: string; plan: DigestPlan } | undefined | null,
  none: string,
): Promise<string> {
  if (!digest) return none;
  const times = await rt.schedules.times(digest.scheduleId);
  const next = times?.nextScheduleTime ? ` Next: ${new Date(times.nextScheduleTime).toISOString()}.` : "";
  return `Digest: ${describePlan(digest.plan)}.${next}`;
}

/**
 * The job each delivery of the schedule carries: the place where it was set, and the person who set it as its
 * "trigger" (a personal digest's is the person it is for).
 */
export function digestJob<K extends "digest" | "digest_me">(
  rt: Runtime,
  place: ConversationKey,
  origin: DigestOrigin,
  kind: K,
): JobOf<K> {
  return {
    kind,
    key: place,
    conversationId: `digest-${place.channel}`,
    trigger: { id: `digest-${place.channel}`, ts: rt.now(), authorId: origin.userId, authorName: "" },
    required: false,
    reason: "digest",
    bot: botIdentity(rt, origin.botUserId),
    replyTarget: origin.replyTarget,
  };
}
