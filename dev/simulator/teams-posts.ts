/**
 * @module
 * The bot's Teams messages as the page shows them, read from the Teams fake: each as it stands now (an answer grows
 * by replacements of one message, or, in a 1:1 chat, by Teams' own stream), in the channel's reply chain it joined,
 * the group chat or the 1:1 chat, drawn from Teams' Markdown (./views/markdown-view.ts, `TEAMS_MARKDOWN`).
 */
import { z } from "zod";
import { type TeamsChats, teamsPlace } from "./send-teams.ts";
import type { Timeline } from "./timeline.ts";
import { markdownView, TEAMS_MARKDOWN } from "./views/markdown-view.ts";

const botActivity = z.looseObject({
  id: z.string(),
  conversation: z.string(),
  root: z.string().optional(),
  text: z.string(),
});

export async function collectTeamsPosts(
  timeline: Timeline,
  fakeUrl: string,
  chats: TeamsChats | undefined,
  botName: string,
): Promise<void> {
  if (!chats) return;
  const res = await fetch(`${fakeUrl}/__activities`);
  if (!res.ok) throw new Error(`${fakeUrl}/__activities answered ${res.status}`);
  const now = Date.now();
  for (const a of z.array(botActivity).parse(await res.json())) {
    // A stream that shows only its status line has no words yet.
    if (!a.text) continue;
    const id = `${a.conversation}#${a.id}`;
    const view = markdownView(a.text, TEAMS_MARKDOWN);
    const shown = timeline.entries.find((e) => e.id === id);
    if (shown) Object.assign(shown, { text: a.text, view });
    else if (!timeline.forgot(id)) {
      const spot = a.conversation === chats.channel ? "channel" : a.conversation === chats.group ? "group" : "dm";
      timeline.add({
        id,
        platform: "teams",
        author: botName,
        bot: true,
        text: a.text,
        view,
        at: now,
        channel: a.conversation,
        spot,
        place: teamsPlace(chats.tenant, a.conversation, spot === "channel" ? a.root : undefined),
      });
    }
  }
}
