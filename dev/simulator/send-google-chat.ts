/**
 * @module
 * The simulator's Google Chat: the space "Team" (threads: each message at the top starts one, which the answer
 * joins) with Alice, Bob and Carol and the app, and each person's DM with the app, made in the Google Chat fake at
 * start. A person's message is written there and the fake sends the Worker's endpoint what Chat would (in the space
 * only a message that @mentions the app; every message of a DM), signed with its keys (`npm run dev` gave the fake
 * the Worker's endpoint and audience: dev/fakes/google-chat/settings.ts).
 */
import { GOOGLE_CHAT_SPACE, googleChatDmOf, PEOPLE, type SimulatedPerson } from "./people.ts";

/** Where on Google Chat the person writes. */
export type GoogleChatSpot = "space" | "dm";

async function control<T>(fakeUrl: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${fakeUrl}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`the Google Chat fake answered ${path} with ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Makes the space and the DMs. */
export async function readyGoogleChat(fakeUrl: string): Promise<void> {
  await control(fakeUrl, "/__space", {
    name: GOOGLE_CHAT_SPACE.name,
    spaceType: "SPACE",
    displayName: GOOGLE_CHAT_SPACE.title,
  });
  for (const p of PEOPLE) await control(fakeUrl, "/__space", { name: googleChatDmOf(p), spaceType: "DIRECT_MESSAGE" });
}

/** The admin view's key of a conversation there: the space's thread, or the DM (unthreaded). */
export function googleChatPlace(space: string, thread?: string): string {
  const id = space.slice("spaces/".length);
  const threadId = thread?.split("/threads/")[1] ?? "";
  return `google-chat|${id}|${id}|${threadId}`;
}

/**
 * The person writes `text` (in the space, `@Name` of the bot is the @mention Chat makes of it, at the start);
 * the message, its thread, and the place of its conversation.
 */
export async function sendGoogleChat(
  fakeUrl: string,
  botName: string,
  person: SimulatedPerson,
  text: string,
  spot: GoogleChatSpot,
): Promise<{ message: string; space: string; place: string }> {
  const space = spot === "dm" ? googleChatDmOf(person) : GOOGLE_CHAT_SPACE.name;
  const mention = new RegExp(`@${botName}\\b\\s*`, "gi");
  const sent = await control<{ message: string; thread: string; delivery: { status?: number } | null }>(
    fakeUrl,
    "/__message",
    {
      space,
      from: { name: person.googleChatUser, displayName: person.name },
      text: text.replace(mention, "").trim(),
      mention: spot === "space" && mention.test(text),
    },
  );
  const status = sent.delivery?.status;
  if (status !== undefined && status !== 200) throw new Error(`the Worker answered Chat's event with ${status}`);
  return { message: sent.message, space, place: googleChatPlace(space, spot === "space" ? sent.thread : undefined) };
}

/**
 * The person clicks the button whose text is `label` on the app's message: the fake sends the Worker the click and
 * does what Chat does with the answer (an update of the message, or a private note the page shows them).
 */
export async function clickGoogleChat(
  fakeUrl: string,
  person: SimulatedPerson,
  click: { space: string; message: string; label: string },
): Promise<{ status: number }> {
  const sent = await control<{ status?: number }>(fakeUrl, "/__click", {
    space: click.space,
    message: click.message,
    by: { name: person.googleChatUser, displayName: person.name },
    button: click.label,
  });
  return { status: sent.status ?? 0 };
}
