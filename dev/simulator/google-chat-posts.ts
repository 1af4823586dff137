/**
 * @module
 * The app's Google Chat messages as the page shows them, read from the Google Chat fake: each as it stands now (a
 * streamed answer grows by patches of one message), in the space's thread it replied in or in the DM, drawn from
 * Chat's text format (./views/mrkdwn-view.ts, `googleChatTextView`), with the buttons of its cards (each clicked by
 * its text, ./actions.ts); a private message (a click's note) only for the person who sees it.
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
  /** Its cards as the app last set them: the page draws their buttons. */
  cardsV2: z
    .array(
      z.looseObject({
        card: z.looseObject({
          sections: z.array(
            z.looseObject({
              widgets: z.array(
                z.looseObject({
                  buttonList: z.looseObject({ buttons: z.array(z.looseObject({ text: z.string() })) }).optional(),
                }),
              ),
            }),
          ),
        }),
      }),
    )
    .default([]),
  privateViewer: z.string().optional(),
});

/** The buttons of a message's cards, each named by its text (what a person clicks). */
const buttonsOf = (cards: z.output<typeof chatMessage>["cardsV2"]) =>
  cards.flatMap((c) =>
    c.card.sections.flatMap((s) =>
      s.widgets.flatMap((w) => (w.buttonList?.buttons ?? []).map((b) => ({ id: b.text, label: b.text }))),
    ),
  );

/** Who a `<users/…>` mention names: a person of the page. */
export const googleChatNameOf = (user: string) => PEOPLE.find((p) => p.googleChatUser === user)?.name;

export async function collectGoogleChatPosts(timeline: Timeline, fakeUrl: string, botName: string): Promise<void> {
  const res = await fetch(`${fakeUrl}/__messages?byApp=true`);
  if (!res.ok) throw new Error(`${fakeUrl}/__messages answered ${res.status}`);
  const now = Date.now();
  for (const m of z.array(chatMessage).parse(await res.json())) {
    const view = googleChatTextView(m.text, googleChatNameOf);
    const controls = buttonsOf(m.cardsV2);
    const shown = timeline.entries.find((e) => e.id === m.name);
    const viewer = m.privateViewer && PEOPLE.find((p) => p.googleChatUser === m.privateViewer)?.handle;
    if (shown) Object.assign(shown, { text: m.text, view, controls });
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
        messageId: m.name,
        controls,
        ...(viewer ? { visibleTo: viewer } : {}),
        spot: inSpace ? "space" : "dm",
        place: googleChatPlace(m.space, inSpace && m.threadReply ? m.thread : undefined),
      });
    }
  }
}
