/**
 * @module
 * Who can read the place a job answers in: what its trigger message said, or, for a place only the platform can
 * tell about (a Discord server channel), the adapter's answer, cached for an hour per place
 * (lib/conversation/visibilities.ts). When the platform
 * cannot be asked, the place counts as private: what is said there is never shown anywhere else.
 */
import { jobLogFields } from "../log-ids.ts";
import { errorMessage } from "../log.ts";
import type { Visibility } from "../message.ts";
import type { Replier } from "../platforms/replier.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";

const FAIL_CLOSED: Visibility = "private";

export async function placeVisibility(
  rt: Runtime,
  job: Job,
  replier: Pick<Replier, "placeVisibility">,
): Promise<Visibility> {
  if (job.visibility) return job.visibility;
  const cached = await rt.visibilities.cached(job.key);
  if (cached) return cached;
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
  await rt.visibilities.remember(job.key, found);
  return found;
}
