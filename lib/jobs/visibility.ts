/**
 * @module
 * Who can read the place a job answers in: what its trigger message said, or, for a place only the platform can
 * tell about (a Discord server channel), the adapter's answer, cached for an hour per place. When the platform
 * cannot be asked, the place counts as private: what is said there is never shown anywhere else.
 */
import { jobLogFields } from "../log-ids.ts";
import { errorMessage } from "../log.ts";
import { visibilityKey } from "../keys.ts";
import { VISIBILITIES, type Visibility } from "../message.ts";
import type { Replier } from "../platforms/replier.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";

/** A channel's permissions rarely change; an hour bounds how long a change goes unseen. */
const CACHE_SECONDS = 3_600;
const FAIL_CLOSED: Visibility = "private";

export async function placeVisibility(
  rt: Runtime,
  job: Job,
  replier: Pick<Replier, "placeVisibility">,
): Promise<Visibility> {
  if (job.visibility) return job.visibility;
  const key = visibilityKey(rt.settings.REDIS_KEY_PREFIX, job.key);
  const cached = await rt.redis.get<string>(key);
  const known = VISIBILITIES.find((v) => v === cached);
  if (known) return known;
  let found: Visibility;
  try {
    found = await replier.placeVisibility(job);
  } catch (err) {
    rt.log.warn("visibility_unknown", {
      ...(await jobLogFields(rt, job)),
      error: errorMessage(err),
      counted_as: FAIL_CLOSED,
    });
    return FAIL_CLOSED;
  }
  await rt.redis.set(key, found, { ex: CACHE_SECONDS });
  return found;
}
