/**
 * @module
 * Lanes: one local server holding many independent instances, one per test suite, addressed by a path prefix
 * (`/lanes/<name>/...`). Suites running in parallel each get their own faults (and, in the QStash stand-in, their
 * own clock) without starting a server each. A URL without the prefix is the default lane, named "".
 */

const LANES_PREFIX = "/lanes/";
const LANE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export type LaneSplit = { lane: string; rest: string } | { error: string };

/** Splits a raw request URL into its lane and the URL the lane serves (`/` at least, query kept). */
export function splitLane(rawUrl: string): LaneSplit {
  if (!rawUrl.startsWith(LANES_PREFIX)) return { lane: "", rest: rawUrl };
  const afterPrefix = rawUrl.slice(LANES_PREFIX.length);
  const end = afterPrefix.search(/[/?]/);
  const lane = end === -1 ? afterPrefix : afterPrefix.slice(0, end);
  if (!LANE_NAME.test(lane)) return { error: `lane "${lane}" is not 1-64 letters, digits, "_" or "-"` };
  const rest = end === -1 ? "/" : afterPrefix.slice(end);
  return { lane, rest: rest.startsWith("/") ? rest : `/${rest}` };
}
