/**
 * @module
 * The loop every platform's `send` runs over the parts of an answer: skip what an earlier attempt posted, ask the
 * platform about the part an earlier attempt left unconfirmed, report each part before its call and once it was
 * accepted (lib/message.ts PartProgress). The platform supplies how to post a part and, if it can, how to find one.
 */
import type { PartProgress } from "../message.ts";

export interface PartPoster {
  /** Posts part `index` (tagged with `progress.answerId` and `index` where the platform allows); answers its id. */
  post(part: string, index: number): Promise<string>;
  /**
   * The id of part `index` if an earlier attempt's post of it landed (posted since `since`), else null. Absent when
   * posting again is itself safe (an idempotent edit, Discord's nonce) or the platform offers no way to look.
   */
  find?(part: string, index: number, since: number): Promise<string | null>;
  /**
   * A part posted again shows twice and cannot be looked for (Telegram, Teams): each part's id is made durable as soon
   * as the platform accepts it, since a retry that lost it could only post the part again.
   */
  unfindable?: boolean;
}

/** Posts `parts` from `progress.from` on; answers the ids of the parts this call posted or found, in order. */
export async function postParts(
  parts: readonly string[],
  progress: PartProgress,
  poster: PartPoster,
): Promise<string[]> {
  const ids: string[] = [];
  for (let index = progress.from; index < parts.length; index++) {
    const part = parts[index]!;
    const unsure = index === progress.from && progress.unsure !== undefined;
    const found = unsure && poster.find ? await poster.find(part, index, progress.unsure!.since) : null;
    if (!found) await progress.starting(index, unsure && !poster.find);
    const id = found ?? (await poster.post(part, index));
    await progress.posted(index, id, !found && poster.unfindable === true);
    ids.push(id);
  }
  return ids;
}
