/**
 * @module
 * Channel-relative features: how this channel talks, read from the same view the decider already holds (no
 * extra store read). Absolute counts mean different things in a busy channel and a quiet one ("three minutes
 * since the bot spoke" is an age in a quiet channel and a moment in a busy one), so the learned tier also reads
 * the view's pace, how often names are used to address here, how many people talk at once, how often the bot is
 * addressed, and the bot's silence measured in this channel's own time.
 */
import type { ChannelView } from "./channel.ts";
import { BOT } from "./participants.ts";
import { log1p } from "./turn.ts";

/** "At once": the people who spoke in the last few minutes before the message. */
const CONCURRENT_MS = 5 * 60_000;
/** IRC times have minute resolution: a view spans at least a minute. */
const MIN_SPAN_MINUTES = 1;
/** The bot's silence in the channel's own messages, capped where it stops mattering. */
const SILENCE_CAP = 40;

export const CHANNEL_FEATURES = [
  "channel_log_pace", "channel_name_rate", "channel_log_concurrent", "channel_bot_addressed_rate", "channel_bot_silence",
] as const;

/** The features above, in order, from one pass over the view's messages before the current one. */
export function channelFeatures(view: ChannelView): number[] {
  const { messages, current } = view;
  const before = messages.length - 1;
  if (before <= 0) return [0, 0, 0, 0, SILENCE_CAP];
  const spanMinutes = Math.max(MIN_SPAN_MINUTES, (current.ts - messages[0]!.ts) / 60_000);
  let naming = 0;
  let toBot = 0;
  let botLast = -1;
  const concurrent: number[] = [];
  for (let i = 0; i < before; i++) {
    const m = messages[i]!;
    if (m.lead >= 0 || m.named.length > 0) naming++;
    if (m.lead === BOT || m.named.includes(BOT)) toBot++;
    if (m.author === BOT) botLast = i;
    if (current.ts - m.ts <= CONCURRENT_MS && !concurrent.includes(m.author)) concurrent.push(m.author);
  }
  const pace = before / spanMinutes;
  // Minutes since the bot spoke, in this channel's messages-per-minute: the same silence reads alike at any pace.
  const silence = botLast < 0 ? SILENCE_CAP : Math.min(SILENCE_CAP, ((current.ts - messages[botLast]!.ts) / 60_000) * pace);
  return [Math.log(pace), naming / before, log1p(concurrent.length), toBot / before, log1p(silence)];
}
