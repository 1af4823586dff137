/**
 * @module
 * A press of Stop on an answer as it is written (./capability.ts), read from the platform's signed interaction: its
 * asker's press, or one by someone the platform says may manage the place, sets the answer's Stop mark once (a
 * double click or a redelivery finds it set, and changes nothing); the job ends the answer at its next visible
 * update (lib/jobs/write.ts). Anyone else is told privately who can stop it, and nothing changes.
 */
import type { ControlPress } from "../approvals/capability.ts";
import { stopRefused } from "../notices.ts";
import type { AnyPlatformAdapter } from "../platforms/adapter.ts";
import { replyContext } from "../platforms/context.ts";
import type { Runtime } from "../runtime.ts";
import { readStopId } from "./capability.ts";

/** What a press of Stop answers: `note` for the presser alone (null: nothing to say); null for any other control. */
export async function pressStop(
  rt: Runtime,
  adapter: AnyPlatformAdapter,
  press: ControlPress,
): Promise<{ note: string | null } | null> {
  const stop = readStopId(press.controlId);
  if (!stop) return null;
  const { place, person } = press;
  const ctx = replyContext(rt, adapter, place.tenant);
  const allowed = person === stop.askerId || ((await adapter.stop?.mayStopAny(ctx, press)) ?? false);
  const first = allowed && (await rt.store.replies.stop(place, stop.triggerId, press.personName ?? person));
  rt.log.info("stop_pressed", { platform: place.platform, tenant: place.tenant, allowed, first });
  if (allowed) return { note: null };
  const asker = press.named?.id === stop.askerId ? press.named.name : undefined;
  const mention = adapter.approvals?.controls?.mention(stop.askerId, asker) ?? stop.askerId;
  return { note: stopRefused(mention, adapter.stop !== undefined) };
}
