/**
 * @module
 * The cron's side of recall retention (Upstash Vector has no TTL): at most one bounded sweep step per cron run
 * (./retention.ts: one list request, one delete-by-filter request per namespace), a whole pass at most once an
 * hour. Where a pass stands is one Redis key, so a run costs one GET when nothing is due.
 */
import { recallSweepKey } from "../../keys.ts";
import { errorMessage } from "../../log.ts";
import type { Services } from "../../services.ts";
import { recallIndexFor } from "./index-for.ts";
import { retentionCutoff, sweepExpiredPassages } from "./retention.ts";

/** Namespaces swept per run: each is one request, and the cron runs every minute. */
const NAMESPACES_PER_RUN = 20;
/** Between two passes; a pass left unfinished that long starts over. */
const PASS_EVERY_SECONDS = 3_600;
/** Never a namespace: every namespace has `:recall:` in it (./namespace.ts). */
const PASS_DONE = "done";

export async function sweepRecallRetention(rt: Services): Promise<void> {
  const index = recallIndexFor(rt);
  if (!index) return;
  try {
    const key = recallSweepKey(rt.settings.REDIS_KEY_PREFIX);
    const mark = await rt.redis.get<string>(key);
    if (mark === PASS_DONE) return;
    const swept = await sweepExpiredPassages(index, {
      keyPrefix: rt.settings.REDIS_KEY_PREFIX,
      cutoff: retentionCutoff(rt.now(), rt.settings.RECALL_RETENTION_DAYS),
      maxNamespaces: NAMESPACES_PER_RUN,
      ...(mark ? { after: mark } : {}),
    });
    await rt.redis.set(key, swept.next ?? PASS_DONE, { ex: PASS_EVERY_SECONDS });
    rt.log.info("recall_swept", {
      deleted: swept.deleted,
      namespaces: swept.namespaces,
      done: swept.next === undefined,
    });
  } catch (err) {
    rt.log.warn("recall_sweep_failed", { error: errorMessage(err) });
  }
}
