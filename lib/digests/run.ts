/**
 * @module
 * A digest's delivery (POST /jobs/digest, from the place's QStash schedule): the slot is the schedule's last time
 * (QStash's `lastScheduleTime`, asked once per delivery), and its record (./slots.ts) makes one digest per slot
 * whatever QStash redelivers. The run reads the place with the catch-up's pieces (lib/catch-up/pages.ts) since the
 * last digest, at most one period and CATCHUP_MAX_MESSAGES back, forgotten people left out; summarizes it chunk
 * by chunk in the catch-up's form, every call within the tenant's budget; and posts one summary with links, or
 * nothing when nothing was said. A slot first taken up more than LATE_AFTER_MS after its time (the Worker was down
 * through QStash's first attempts) is posted once, marked late. A delivery of a schedule the place no longer names
 * (turned off, or left behind by a failure) does nothing.
 */
import { CatchUpRefused, chunksOf, nextCall, numbered, readPage } from "../catch-up/pages.ts";
import { withLinks } from "../catch-up/step.ts";
import { RetryLater } from "../errors.ts";
import { metered } from "../jobs/metered.ts";
import type { JobScope } from "../jobs/scope.ts";
import type { PartProgress } from "../message.ts";
import { type DigestPlan, describePlan, periodMs } from "./plan.ts";
import type { DigestOutcome, DigestSlot } from "./slots.ts";

/** QStash's first two retries come within 3 minutes; its third after half an hour: that one is late. */
export const LATE_AFTER_MS = 10 * 60_000;
/** How soon QStash tries again while another attempt holds the slot. */
const BUSY_RETRY_SECONDS = 30;

export type DigestRunOutcome = DigestOutcome | "not_scheduled" | "already_done";

/** What a delivery tells of itself: the schedule it comes from (`Upstash-Schedule-Id`). */
export interface DigestDelivery {
  scheduleId: string | undefined;
}

export async function runDigestJob(scope: JobScope, delivery: DigestDelivery): Promise<DigestRunOutcome> {
  const { rt, job } = scope;
  const digest = (await rt.placeSettings.read(job.key)).digest;
  const slot = await deliveredSlot(scope, digest?.scheduleId, delivery);
  if (!digest || slot === undefined) return "not_scheduled";
  const { scheduleId, plan } = digest;
  return onceForSlot(scope, scheduleId, slot, rt.digests, (known) => runSlot(scope, scheduleId, slot, plan, known));
}

/**
 * The slot a delivery stands for: its schedule's last time, when it comes from `scheduleId` (the one its settings
 * name); else none (logged `digest_not_scheduled`).
 */
export async function deliveredSlot(
  scope: JobScope,
  scheduleId: string | undefined,
  delivery: DigestDelivery,
): Promise<number | undefined> {
  const { rt, where } = scope;
  const slot =
    scheduleId && scheduleId === delivery.scheduleId
      ? (await rt.schedules.times(scheduleId))?.lastScheduleTime
      : undefined;
  if (slot === undefined) rt.log.info("digest_not_scheduled", { ...where });
  return slot;
}

/**
 * Runs the slot unless its record says it is done, under its claim (one attempt at a time: QStash may deliver twice
 * at once); `load` reads its record, which `run` is handed. The claim goes with an error, for QStash to retry.
 */
export async function onceForSlot<R extends { outcome?: DigestOutcome | undefined }>(
  scope: JobScope,
  scheduleId: string,
  slot: number,
  records: { load(scheduleId: string, slot: number): Promise<R | null> },
  run: (known: R | null) => Promise<DigestOutcome>,
): Promise<DigestRunOutcome> {
  const { rt, where } = scope;
  if ((await records.load(scheduleId, slot))?.outcome) return "already_done";
  if (!(await rt.digests.claim(scheduleId, slot, crypto.randomUUID())))
    throw new RetryLater("another attempt is on this digest", BUSY_RETRY_SECONDS);
  try {
    // Read again under the claim: an attempt that held it until a moment ago may have finished the slot.
    const known = await records.load(scheduleId, slot);
    if (known?.outcome) {
      await rt.digests.release(scheduleId, slot);
      return "already_done";
    }
    const outcome = await run(known);
    rt.log.info("digest_run", { ...where, outcome, slot });
    return outcome;
  } catch (err) {
    await rt.digests.release(scheduleId, slot);
    throw err;
  }
}

async function runSlot(
  scope: JobScope,
  scheduleId: string,
  slot: number,
  plan: DigestPlan,
  known: DigestSlot | null,
): Promise<DigestOutcome> {
  const { rt, job } = scope;
  const last = await rt.digests.lastSlot(scheduleId);
  let record: DigestSlot = known ?? {
    late: rt.now() - slot > LATE_AFTER_MS,
    progress: {
      since: Math.max(slot - periodMs(plan), last ?? 0),
      before: { id: job.trigger.id, ts: slot },
      pages: 0,
      messages: [],
      notes: [],
    },
    posted: [],
  };
  const save = () => rt.digests.save(scheduleId, slot, record);
  const finish = async (outcome: DigestOutcome) => {
    await rt.digests.finish(scheduleId, slot, record, outcome);
    return outcome;
  };
  try {
    for (let before = record.progress.before; before; before = record.progress.before) {
      record = { ...record, progress: await readPage(scope, record.progress, before, false) };
      await save();
    }
  } catch (err) {
    if (!(err instanceof CatchUpRefused)) throw err;
    // A read that failed (nothing named as refused) is QStash's to retry, on its own backoff: the slot is not over.
    if (err.missing === null) {
      rt.log.warn("digest_history_unavailable", { ...scope.where, slot });
      throw err;
    }
    rt.log.warn("digest_refused", { ...scope.where, missing: err.missing });
    return finish("refused");
  }
  if (record.text === undefined) {
    const written = await summarize(scope, record, save, (next) => {
      record = next;
    });
    if (written !== "written") return finish(written);
  }
  await post(scope, `${scheduleId}-${slot}`, heading(slot, plan, record.late), record, async (next) => {
    record = next;
    await save();
  });
  return finish("posted");
}

/** The summary written into the record, chunk by chunk (each note saved); or why there is none to post. */
export async function summarize(
  scope: JobScope,
  start: DigestSlot,
  save: () => Promise<void>,
  set: (record: DigestSlot) => void,
): Promise<"written" | "nothing_said" | "over_budget"> {
  const { rt } = scope;
  const budget = rt.settings.PROMPT_TOKEN_BUDGET;
  const { records, ids } = numbered(start.progress);
  if (records.length === 0) return "nothing_said";
  const chunks = chunksOf(records, budget);
  let record = start;
  for (;;) {
    const { input, last } = nextCall(chunks, record.progress.notes, budget);
    const maxTokens = rt.settings.MAX_REPLY_TOKENS;
    const called = await metered(scope, budget + maxTokens, (onUsage) => rt.llm.catchUp({ input, maxTokens, onUsage }));
    if ("over" in called) {
      rt.log.info("digest_over_budget", { ...scope.where, over: called.over.over });
      return "over_budget";
    }
    const text = called.done ?? "";
    record = last
      ? { ...record, ...(text ? { text: withLinks(scope, text, ids) } : {}) }
      : { ...record, progress: { ...record.progress, notes: [...record.progress.notes, text] } };
    set(record);
    await save();
    if (last) return text ? "written" : "nothing_said";
  }
}

/** The digest posted part by part, each part's call and id saved first, so that a retry posts none twice. */
export async function post(
  scope: JobScope,
  answerId: string,
  title: string,
  start: DigestSlot,
  update: (record: DigestSlot) => Promise<void>,
): Promise<void> {
  const { rt, job } = scope;
  let record = start;
  const { starting } = record;
  const progress: PartProgress = {
    answerId: `digest-${answerId}`,
    from: record.posted.length,
    ...(starting?.index === record.posted.length ? { unsure: { since: starting.since } } : {}),
    starting: async (index) => {
      record = { ...record, starting: { index, since: rt.now() } };
      await update(record);
    },
    posted: async (_index, id) => {
      const { starting: _done, ...rest } = record;
      record = { ...rest, posted: [...record.posted, id] };
      await update(record);
    },
  };
  await scope.replier.send(job, `${title}\n\n${record.text ?? ""}`, progress);
}

/** The digest's first line: which digest it is, and when it was due if it is late. */
export function heading(slot: number, plan: DigestPlan, late: boolean): string {
  const due = new Date(slot)
    .toISOString()
    .replace(/:\d{2}\.\d{3}Z$/, " UTC")
    .replace("T", " ");
  return `**Digest** (${describePlan(plan)})${late ? `, late: it was due at ${due}` : ""}`;
}
