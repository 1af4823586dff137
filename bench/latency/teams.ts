/**
 * @module
 * bench/latency's Microsoft Teams questions and what a person saw of their answers: an @mention of the bot in a new
 * post of a channel of its own (typing, then a reply posted and edited as it grows) and a message in a 1:1 chat
 * (a status line, then Teams' own stream in its place: its text growing, ended by the final message). Each
 * conversation is made in the Teams fake as the question is asked (the fake names it, as Teams does), and the
 * fake's activity is posted to the Worker as the Bot Connector posts it. The fake's records (its clock, this
 * machine's) tell the first sign (the first typing activity or status line), the first text (the first revision of
 * the bot's message that shows text: an informative update is a status line, not the answer) and when the answer was
 * complete.
 */
import { longAnswer } from "../../dev/local-model/long-answer.ts";
import { TEAMS_MAX_MESSAGE_CHARS, teamsMarkdown } from "../../lib/platforms/teams/format.ts";
import { splitText } from "../../lib/text/split.ts";
import { makeTeamsConversation, teamsChatOf, teamsRequest, teamsSay } from "../load/teams-traffic.ts";
import { askWorker } from "./ask.ts";

export type TeamsKind = "teams_channel" | "teams_dm";

let people = 0;

/**
 * Makes the conversation in the fake (`place` hears its id), writes the question there, posts the Connector's activity
 * to the Worker; when it was accepted.
 */
export async function askOnTeams(
  fakeUrl: string,
  workerUrl: string,
  kind: TeamsKind,
  place: (id: string) => void,
  text: string,
): Promise<number> {
  const conversation = await makeTeamsConversation(fakeUrl, kind === "teams_dm" ? "personal" : "channel");
  place(conversation);
  people += 1;
  const from = { id: `29:1latency${people}`, name: `Person ${people}` };
  const { delivery } = await teamsSay(fakeUrl, { conversation, from, text, mention: kind === "teams_channel" });
  if (!delivery) throw new Error(`Teams sent the bot nothing of ${conversation}`);
  return askWorker(teamsRequest(workerUrl, delivery), kind);
}

interface Activity {
  text: string;
  stream?: { state: string };
  revisions: { at: number; streamType?: string }[];
}
interface Call {
  route: string;
  conversation: string;
  at: number;
}

const getJson = async <T>(url: string): Promise<T> => (await (await fetch(url)).json()) as T;

/** What the person saw of the answer in `conversation`, or null while it is not complete. */
export async function seenOnTeams(fakeUrl: string, conversation: string, tokens: number) {
  const parts = splitText(longAnswer(tokens), TEAMS_MAX_MESSAGE_CHARS).map(teamsMarkdown);
  const messages = await getJson<Activity[]>(
    `${fakeUrl}/__activities?conversation=${encodeURIComponent(conversation)}`,
  );
  const done = messages.length === parts.length && messages.every((m, i) => m.text === parts[i]);
  if (!done || messages.some((m) => m.stream?.state === "streaming")) return null;
  const calls = (await getJson<Call[]>(`${fakeUrl}/__calls`))
    .filter((c) => teamsChatOf(c.conversation) === conversation)
    .sort((a, b) => a.at - b.at);
  const texts = messages.flatMap((m) => m.revisions.filter((r) => r.streamType !== "informative").map((r) => r.at));
  const typing = calls.find((c) => c.route === "send typing");
  // The working sign: typing, or in a 1:1 chat the status line that begins the stream.
  const shown = messages.flatMap((m) => m.revisions.map((r) => r.at));
  return {
    signAt: Math.min(typing?.at ?? Infinity, ...shown),
    firstTextAt: Math.min(...texts),
    completeAt: Math.max(...texts),
    calls: calls.length,
    rateLimited: 0,
  };
}

/** The 429s the fake answered (a conversation's limits and streams' pace), all conversations together. */
export async function teamsRefusals(fakeUrl: string): Promise<number> {
  const calls = await getJson<{ refused?: string }[]>(`${fakeUrl}/__calls`);
  const stats = await getJson<{ ratelimited: { total: number } }>(`${fakeUrl}/__stats`);
  return stats.ratelimited.total + calls.filter((c) => c.refused === "TooManyRequests").length;
}
