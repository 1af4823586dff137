/**
 * @module
 * bench/chaos's Microsoft Teams conversations, as the Bot Connector delivers them (dev/fakes/teams): a channel where a
 * person @mentions the bot in a new post (the root of a reply chain, which the answer joins) and others reply in that
 * chain without a mention (written in the channel, never sent to the bot: without resource-specific consent a bot
 * gets only what mentions it), and a person's 1:1 chat with the bot, carrying a secret that must stay there. The fake
 * names each conversation (as Teams does) when it is made, and the reply chain once the trigger is written; every
 * conversation is of the fake's one Microsoft tenant.
 */
import type { Random } from "../../dev/faults/seeded-random.ts";
import { makeTeamsConversation, type TeamsSay, teamsRequest, teamsSay } from "../load/teams-traffic.ts";
import type { Conversation, InboundMessage } from "./plan.ts";
import type { Writer } from "./send.ts";
import { toolAsk } from "./tool-asks.ts";

const CHATTER_MAX = 3;
/** The fake's tenant (dev/fakes/teams/world.ts). */
const TEAMS_TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";

export type TeamsKind = "teams_channel" | "teams_dm";

/** What a person writes in the fake's Teams. */
export type TeamsLine = Omit<TeamsSay, "conversation" | "thread">;

/** What the plan drew for a conversation: `id` its number, `tag` in each text, `word(n)` the n-th text's word. */
export interface Drawn {
  id: number;
  tag: string;
  word: (n: number) => string;
  secret: string;
  random: Random;
  run: string;
}

/** One Teams conversation of the plan. */
export function teamsConversation(kind: TeamsKind, { id, tag, word, secret, random, run }: Drawn): Conversation {
  const dm = kind === "teams_dm";
  const person = (n: number) => ({ id: `29:1chaos${run}x${id}p${n}`, name: `Person ${id}.${n}` });
  const line = (n: number, text: string, mention: boolean, trigger: boolean): InboundMessage => ({
    word: word(n),
    trigger,
    teams: { from: person(dm ? 0 : n), text: `${tag} ${word(n)} ${text}`, mention },
    ...(n > 0 ? { reply: true } : {}),
  });
  const messages: InboundMessage[] = [];
  if (dm)
    messages.push(line(0, `my locker code is ${secret}, can you keep it in mind?${toolAsk(id, tag)}`, false, true));
  else {
    messages.push(line(0, `what do you think of plan ${id}?${toolAsk(id, tag)}`, true, true));
    const chatter = 1 + Math.floor(random() * CHATTER_MAX);
    for (let n = 1; n <= chatter; n++) messages.push(line(n, `I think step ${n} is fine`, false, false));
  }
  return {
    id,
    kind,
    tag,
    // The chat is the fake's to name: `teamsWriter.open` sets it.
    place: { platform: "teams", tenant: TEAMS_TENANT, channel: "" },
    ...(dm ? { secret } : {}),
    messages,
  };
}

/** A Teams conversation made in the fake, and each line written there: the delivery is what the bot is sent. */
export const teamsWriter: Writer = {
  async open(s, c) {
    c.place.channel = await makeTeamsConversation(s.teamsFake, c.kind === "teams_dm" ? "personal" : "channel");
  },
  async write(s, c, m, thread) {
    const written = await teamsSay(s.teamsFake, {
      conversation: c.place.channel,
      ...m.teams!,
      ...(thread ? { thread } : {}),
    });
    return { ...(written.root ? { thread: written.root } : {}), delivery: written.delivery };
  },
  request: teamsRequest,
};
