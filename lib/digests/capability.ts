/**
 * @module
 * What a personal digest (`/parley digest me …`, ./personal-run.ts) asks of a platform, at every run: the public
 * channels of the tenant the person is a member of now (never a private channel, a DM or a group DM: the platform
 * answers this from its own membership, so a channel left since the last run is not listed), and the DM that the
 * digest goes to. A platform without it has no personal digests.
 */
import type { ReplyTarget } from "../message.ts";

/** One public channel in a person's digest: where its section reads, and what it is called there. */
export interface PersonalPlace<Target extends ReplyTarget = ReplyTarget> {
  channel: string;
  name: string;
  /** Where a message of the channel goes: the section's reads are made as for a message there. */
  target: Target;
}

export interface PersonalDigestCapability<Target extends ReplyTarget, Ctx> {
  /** The public channels of `tenant` that `person` is a member of, as the platform says now. */
  places(ctx: Ctx, who: { tenant: string; person: string }): Promise<PersonalPlace<Target>[]>;
  /** The bot's DM with `person`, opened if need be. */
  dm(ctx: Ctx, who: { tenant: string; person: string }): Promise<{ channel: string; target: Target }>;
}

/** The optional capability an adapter adds (lib/platforms/adapter.ts PlatformAdapter extends it). */
export interface WithPersonalDigests<Target extends ReplyTarget, Ctx> {
  readonly personalDigests?: PersonalDigestCapability<Target, Ctx>;
}
