// The simulator page's state (what is in view) and its small DOM helpers, shared by the chat and the inspector.
export const $ = (selector) => document.querySelector(selector);

// `workspace`: the Slack workspace in view (its team id); `thread`: the open Slack thread (its parent's ts);
// `discordThread`: the open Discord thread (its starter message's id); `telegramSpot`: the Telegram group's General
// topic, its forum topic, or the person's private chat; `gchatSpot`: the Google Chat space or the person's DM;
// `teamsSpot`: the Teams channel, the group chat or the person's 1:1 chat.
export const view = {
  tab: "slack",
  person: "alice",
  workspace: null,
  thread: null,
  discordThread: null,
  telegramSpot: "general",
  gchatSpot: "space",
  teamsSpot: "channel",
  setup: null,
  timeline: { entries: [], workerEvents: [] },
};

/**
 * The page's id of the message a Worker event names: Telegram's ids count per chat, so its entries are `<chat>:<id>`.
 */
export const eventMessageKey = (e, id) => (e.platform === "telegram" ? `${e.channel}:${id}` : id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null) node.setAttribute(key, value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export const currentPerson = () => view.setup.people.find((p) => p.handle === view.person);

/** The admin-view key of the conversation the inspector shows. */
export function currentPlace() {
  // The place ends with the empty thread part (`slack|T|C|`): a thread fills it in.
  if (view.tab === "slack") return `slack|${view.workspace}|${view.setup.slack.channelId}|${view.thread ?? ""}`;
  if (view.tab === "discord")
    return view.discordThread ? discordThreadPlace(view.discordThread) : view.setup.discord.place;
  if (view.tab === "telegram") return view.setup.telegram.places[view.person][view.telegramSpot];
  if (view.tab === "google-chat") return googleChatPlace();
  if (view.tab === "teams") return teamsPlace();
  return `${view.setup.sms.placePrefix}${currentPerson().phone}|`;
}

/** A Discord thread is a channel of its own, with the id of the message it was started from. */
function discordThreadPlace(id) {
  const [platform, guild] = view.setup.discord.place.split("|");
  return `${platform}|${guild}|${id}|`;
}

/**
 * How a confirm tool's approval (its `approval_opened` log event) ended: its continuation job's first end (the
 * continuation's trigger is `approval:<the asker's message>`; the one published for the expiry comes later).
 */
/** The Worker's log events of an answer to a question: a reaction, or a press of its buttons. */
export const APPROVAL_ANSWERS = new Set(["approval_reaction", "approval_control"]);

export const approvalEnd = (events, opened) =>
  events.find((e) => e.event === "approval_ended" && e.trigger === `approval:${opened.trigger}`);

/**
 * The Google Chat conversation in view: the person's DM, or in the space the thread of the person's latest message
 * (each message at the top starts a thread of its own); the space itself before they wrote there.
 */
function googleChatPlace() {
  const { spacePlace, dmPlaces } = view.setup.googleChat;
  return view.gchatSpot === "dm" ? dmPlaces[view.person] : latestOwnThread("google-chat", spacePlace);
}

/** The Teams conversation in view: the 1:1 chat, the group chat, or the reply chain of the person's latest post. */
function teamsPlace() {
  const { channelPlace, groupPlace, dmPlaces } = view.setup.teams;
  if (view.teamsSpot === "dm") return dmPlaces[view.person];
  return view.teamsSpot === "group" ? groupPlace : latestOwnThread("teams", channelPlace);
}

/** In a place where each post at the top starts a thread: the thread of the person's latest post, or the place. */
function latestOwnThread(platform, place) {
  const prefix = place.slice(0, -1);
  const mine = view.timeline.entries.filter(
    (e) => e.platform === platform && !e.bot && e.author === currentPerson().name && e.place.startsWith(prefix),
  );
  return mine.at(-1)?.place ?? place;
}
