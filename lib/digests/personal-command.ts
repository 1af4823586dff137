/**
 * @module
 * `/parley digest me …`, the person's own digest: anyone may set, read or turn off theirs (it reads only what they
 * may read, and goes to their DM alone), from any channel of the tenant. Like a place's digest it is one QStash
 * schedule (its id a keyed pseudonym of the person, the same every time), created before the person's record names
 * it and deleted after the record is cleared (./command.ts), and listed with the tenant's digests for its cleanup.
 */
import type { ConversationKey } from "../message.ts";
import { personId, type Tenancy } from "../keys.ts";
import type { Runtime } from "../runtime.ts";
import { type DigestOrigin, digestJob, digestStatus } from "./command.ts";
import { cronOf, type DigestCommand, DIGEST_USAGE } from "./plan.ts";

const NO_DIGEST = "You have no digest of your own.";

/** The answer's text, and whether anything changed. */
export async function runPersonalDigestCommand(
  rt: Runtime,
  place: ConversationKey,
  command: DigestCommand,
  origin: DigestOrigin,
): Promise<{ text: string; changed: boolean }> {
  if (command.kind === "problem") return { text: `${command.problem}. Usage: /parley ${DIGEST_USAGE}`, changed: false };
  const where = { platform: place.platform, tenant: place.tenant };
  const person = origin.userId;
  if (command.kind === "off") {
    if (!(await endPersonalDigest(rt, where, person))) return { text: NO_DIGEST, changed: false };
    return { text: "Done. Your digest is off.", changed: true };
  }
  if (command.kind === "status") {
    const current = await rt.personalDigests.get(where, person);
    return { text: await digestStatus(rt, current, NO_DIGEST), changed: false };
  }
  const scheduleId = await rt.schedules.idFor(`digest-me|${personId(where, person)}`);
  const channel: ConversationKey = { platform: place.platform, tenant: place.tenant, channel: place.channel };
  await rt.digests.enlist(where, scheduleId);
  await rt.schedules.create(scheduleId, digestJob(rt, channel, origin, "digest_me"), cronOf(command.plan));
  const digest = { scheduleId, plan: command.plan };
  await rt.personalDigests.set(where, person, digest);
  const text = await digestStatus(rt, digest, NO_DIGEST);
  return { text: `Done. ${text.replace(/^Digest:/, "Your digest, in a DM:")}`, changed: true };
}

/**
 * Ends the person's own digest, if they have one: on `me off`, and when they ask to be forgotten (its schedule names
 * them, and "forget me" leaves nothing that does). False when there was none.
 */
export async function endPersonalDigest(rt: Runtime, where: Tenancy, person: string): Promise<boolean> {
  const current = await rt.personalDigests.get(where, person);
  if (!current) return false;
  await rt.personalDigests.clear(where, person);
  await rt.schedules.delete(current.scheduleId);
  await rt.digests.forget(where, current.scheduleId);
  return true;
}
