/**
 * @module
 * The simulated people and places of the simulator page: two Slack workspaces (or the one of a single bot token)
 * with the same #general, one guild, one bot number, one Telegram forum group (and each person's private chat). Each
 * person has an id in the shape each platform uses (the same
 * Slack user id in every workspace), so the Worker sees what it would see in production.
 */

export interface SimulatedPerson {
  /** The handle the page uses: `alice`. */
  handle: string;
  name: string;
  slackUserId: string;
  discordUserId: string;
  phone: string;
  /** Telegram user id, which is also the id of the person's private chat with the bot. */
  telegramUserId: number;
  /** Google Chat user resource name; the person's DM with the app is a space of its own. */
  googleChatUser: string;
  /** Teams user id (`29:…`), as the Bot Connector names people. */
  teamsUser: string;
}

export const PEOPLE: readonly SimulatedPerson[] = [
  {
    handle: "alice",
    name: "Alice",
    slackUserId: "U0SIMALICE",
    discordUserId: "200000000000000001",
    phone: "+15550100001",
    telegramUserId: 400_000_001,
    googleChatUser: "users/500000000000000001",
    teamsUser: "29:1SIMALICE",
  },
  {
    handle: "bob",
    name: "Bob",
    slackUserId: "U0SIMBOB",
    discordUserId: "200000000000000002",
    phone: "+15550100002",
    telegramUserId: 400_000_002,
    googleChatUser: "users/500000000000000002",
    teamsUser: "29:1SIMBOB",
  },
  {
    handle: "carol",
    name: "Carol",
    slackUserId: "U0SIMCAROL",
    discordUserId: "200000000000000003",
    phone: "+15550100003",
    telegramUserId: 400_000_003,
    googleChatUser: "users/500000000000000003",
    teamsUser: "29:1SIMCAROL",
  },
];

/** #general: the same channel id in every workspace, as ids from different workspaces may be; they must stay apart. */
export const SLACK_CHANNEL = "C0SIMGENERAL";

/** A Slack workspace of the page: its team id, its name, and its bot's user id (which events and mentions carry). */
export interface SlackWorkspace {
  team: string;
  name: string;
  botUserId: string;
}

/** The workspaces `npm run dev` installs through /slack/install when the app is installable (SLACK_CLIENT_ID). */
export const INSTALLED_WORKSPACES: readonly { team: string; name: string }[] = [
  { team: "T0ACME", name: "Acme" },
  { team: "T0GLOBEX", name: "Globex" },
];
export const DISCORD_PLACE = { guild: "300000000000000001", channel: "300000000000000002" };
/**
 * The Telegram group of the page: a forum (its General topic, and one topic opened at start) with the three of them.
 */
export const TELEGRAM_GROUP = { id: -1_001_234_500_000, title: "Team", topic: "Releases" };

export function personByHandle(handle: string): SimulatedPerson | undefined {
  return PEOPLE.find((p) => p.handle === handle);
}

/** Replaces `@Name` (a person or the bot, any case) with what `mention(id)` gives for that name's id. */
export function replaceMentions(
  text: string,
  names: { name: string; id: string }[],
  mention: (id: string) => string,
): string {
  return text.replace(/@([\p{L}\p{N}_-]+)/gu, (whole, name: string) => {
    const match = names.find((n) => n.name.toLowerCase() === name.toLowerCase());
    return match ? mention(match.id) : whole;
  });
}

/** The page's Google Chat space (threads: each message at the top starts one) and each person's DM with the app. */
export const GOOGLE_CHAT_SPACE = { name: "spaces/SIMTEAM", title: "Team" };
export const googleChatDmOf = (p: SimulatedPerson) => `spaces/SIMDM${p.handle.toUpperCase()}`;
