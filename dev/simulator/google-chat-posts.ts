/**
 * @module
 * The app's Google Chat messages as the page shows them, read from the Google Chat fake: each as it stands now (a
 * streamed answer grows by patches of one message), in the space's thread it replied in or in the DM, drawn from
 * Chat's text format (./views/mrkdwn-view.ts, `googleChatTextView`).
 */
import { z } from "zod";
import { GOOGLE_CHAT_SPACE, PEOPLE } from "./people.ts";
import { googleChatPlace } from "./send-google-chat.ts";
import type { Timeline } from "./timeline.ts";
import { googleChatTextView } from "./views/mrkdwn-view.ts";

const chatMessage = z.looseObject({
  name: z.string(),
  space: z.string(),
  thread: z.string(),
  threadReply: z.boolean(),
  byApp: z.boolean(),
  text: z.string(),
});

/** Who a `<users/…>` mention names: a person of the page. */
export const googleChatNameOf = (user: string) => PEOPLE.find((p) => p.googleChatUser === user)?.name;

export async function collectGoogleChatPosts(timeline: Timeline, fakeUrl: string, botName: string): Promise<void> {
  const res = await fetch(`${fakeUrl}/__messages?byApp=true`);
  if (!res.ok) throw new Error(`${fakeUrl}/__messages answered ${res.status}`);
  const now = Date.now();
  for (const m of z.array(chatMessage).parse(await res.json())) {
    const view = googleChatTextView(m.text, googleChatNameOf);
    const shown = timeline.entries.find((e) => e.id === m.name);
    if (shown) Object.assign(shown, { text: m.text, view });
    else if (!timeline.forgot(m.name)) {
      const inSpace = m.space === GOOGLE_CHAT_SPACE.name;
      timeline.add({
        id: m.name,
        platform: "google-chat",
        author: botName,
        bot: true,
        text: m.text,
        view,
        at: now,
        channel: m.space,
        spot: inSpace ? "space" : "dm",
        place: googleChatPlace(m.space, inSpace && m.threadReply ? m.thread : undefined),
      });
    }
  }
}
