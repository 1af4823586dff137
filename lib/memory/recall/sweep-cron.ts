/**
 * @module
 * The cron's side of recall retention (Upstash Vector has no TTL): at most one bounded sweep step per cron run
 * (./retention.ts: one list request, one delete-by-filter request per namespace), a whole pass at most once an
 * hour. Where a pass stands is one Redis key, so a run costs one GET when nothing is due.
 */
import { RedisStore } from "../../redis-store.ts";
import { recallSweepKey } from "../../keys.ts";
import { errorMessage } from "../../log.ts";
import type { Services } from "../../services.ts";
import type { Recall } from "./index-for.ts";
import { retentionCutoff, sweepExpiredPassages } from "./retention.ts";

/** Namespaces swept per run: each is one request, and the cron runs every minute. */
const NAMESPACES_PER_RUN = 20;
/** Between two passes; a pass left unfinished that long starts over. */
const PASS_EVERY_SECONDS = 3_600;
/** Never a namespace: every namespace has `:recall:` in it (./namespace.ts). */
const PASS_DONE = "done";

/** Where the cron's pass of the retention sweep stands (`recall:sweep` in lib/keys.ts). */
export class RecallSweepMark extends RedisStore {
  /** The last namespace swept, PASS_DONE after a whole pass, or null when none is under way. */
  async read(): Promise<string | null> {
    return this.redis.get<string>(recallSweepKey(this.prefix));
  }

  async write(mark: string): Promise<void> {
    await this.redis.set(recallSweepKey(this.prefix), mark, { ex: PASS_EVERY_SECONDS });
  }
}

export async function sweepRecallRetention(
  rt: Services & { recall: Recall | null; recallSweep: RecallSweepMark },
): Promise<void> {
  const { recall } = rt;
  if (!recall) return;
  try {
    const mark = await rt.recallSweep.read();
    if (mark === PASS_DONE) return;
    const swept = await sweepExpiredPassages(recall.index, {
      keyPrefix: recall.keyPrefix,
      cutoff: retentionCutoff(rt.now(), rt.settings.RECALL_RETENTION_DAYS),
      maxNamespaces: NAMESPACES_PER_RUN,
      ...(mark ? { after: mark } : {}),
    });
    await rt.recallSweep.write(swept.next ?? PASS_DONE);
    rt.log.info("recall_swept", {
      deleted: swept.deleted,
      namespaces: swept.namespaces,
      done: swept.next === undefined,
    });
  } catch (err) {
    rt.log.warn("recall_sweep_failed", { error: errorMessage(err) });
  }
}
