/**
 * @module
 * The buttons the Worker put on its Discord messages, as the page draws them: read from the Discord fake's messages
 * as they stand now (an answer's Stop while it grows, an approval's Approve and Cancel, feedback's 👍 and 👎), each
 * button of each action row with its `custom_id` (what a press sends back) and label; Discord's success and danger
 * styles as the page's primary and danger. A press is sent as Discord sends it (./send-discord.ts `pressDiscord`).
 */
import { z } from "zod";
import type { MessageControl, Timeline } from "./timeline.ts";

const button = z.looseObject({ custom_id: z.string().optional(), label: z.string().optional(), style: z.number() });
const stored = z.looseObject({
  message: z.looseObject({
    id: z.string(),
    components: z.array(z.looseObject({ components: z.array(button).default([]) })).optional(),
  }),
});
/** Discord's button styles 3 (success) and 4 (danger), as the page shows them. */
const STYLES: Record<number, MessageControl["style"]> = { 3: "primary", 4: "danger" };

export async function collectDiscordControls(timeline: Timeline, fakeUrl: string): Promise<void> {
  const res = await fetch(`${fakeUrl}/__messages`);
  if (!res.ok) throw new Error(`${fakeUrl}/__messages answered ${res.status}`);
  const messages = new Map(
    z
      .array(stored)
      .parse(await res.json())
      .map((m) => [m.message.id, m.message]),
  );
  for (const entry of timeline.entries) {
    const message = entry.platform === "discord" && entry.bot ? messages.get(entry.id) : undefined;
    if (!message) continue;
    entry.controls = (message.components ?? []).flatMap((row) =>
      row.components.flatMap((b) => {
        if (!b.custom_id) return [];
        const style = STYLES[b.style];
        return [{ id: b.custom_id, label: b.label ?? b.custom_id, ...(style ? { style } : {}) }];
      }),
    );
  }
}
