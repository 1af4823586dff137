// Parley simulator page: sends what the chosen person types through the simulator server (which signs it like the
// platform would), and polls the conversation, the Worker's decisions and the admin view of the current conversation.
import { placeChanged, pollState, renderDecisions } from "./inspector.js";
import { drawMessageParts, drawView } from "./render.js";
import { $, APPROVAL_ANSWERS, approvalEnd, currentPerson, el, eventMessageKey, view } from "./view.js";

const POLL_MS = 700;
const STATE_POLL_MS = 1500;

let lastTimeline = "";
/** What the bot answered the latest press on a message, for the person who pressed (Telegram's alert). */
const pressNotes = new Map();

const decisionFor = (id) =>
  view.timeline.workerEvents.findLast((e) => e.event === "decision" && eventMessageKey(e, e.message) === id);

function badge(decision) {
  if (!decision) return null;
  return el(
    "span",
    { class: `badge ${decision.respond}`, "data-testid": "decision-badge", "data-reason": decision.reason },
    `${decision.respond} · ${decision.reason}`,
  );
}

function messageItem(entry, extra = []) {
  const mine = !entry.bot && entry.author === currentPerson().name;
  return el(
    "li",
    {
      class: `message${entry.bot ? " bot" : ""}${entry.pending ? " pending" : ""}${mine ? " mine" : ""}`,
      "data-id": entry.id,
      "data-author": entry.author,
    },
    el("span", { class: "author" }, entry.author),
    ...drawMessageParts(entry),
    el(
      "div",
      { class: "meta" },
      el("time", {}, new Date(entry.at).toLocaleTimeString()),
      entry.bot ? null : badge(decisionFor(entry.id)),
      ...extra,
    ),
  );
}

/** The Worker's log events about the confirm tool's question posted as Slack message `ts` (docs/tools.md). */
function approvalEvents(ts) {
  const events = view.timeline.workerEvents;
  const opened = events.findLast((e) => e.event === "approval_opened" && e.platform === "slack" && e.question === ts);
  if (!opened) return null;
  return {
    answers: events.filter((e) => APPROVAL_ANSWERS.has(e.event) && e.message === ts),
    ended: approvalEnd(events, opened),
  };
}

const postJson = async (path, body) => {
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) alert((await res.json()).error);
};

/** What a press of `control` on `entry` names, as its platform sends it. */
function pressOf(entry, control) {
  if (entry.platform === "telegram")
    return { platform: "telegram", chat: Number(entry.channel), messageId: Number(entry.messageId), id: control.id };
  if (entry.platform === "discord") {
    // The entry's place is the admin key `discord|<guild>|<channel>|`: the channel the message is in.
    const channelId = entry.threadId ?? entry.place.split("|")[2];
    return { platform: "discord", channelId, messageId: entry.id, id: control.id };
  }
  if (entry.platform === "google-chat")
    return { platform: "google-chat", space: entry.channel, message: entry.messageId, label: control.label };
  const thread = entry.threadTs ? { threadTs: entry.threadTs } : {};
  return { platform: "slack", workspace: entry.workspace, ts: entry.ts, ...thread, ...control };
}

/**
 * The buttons the Worker put on a bot's message (Slack's Block Kit, Discord's components, Telegram's inline keyboard,
 * Google Chat's card), pressed as the platform sends the press; what the bot answered a Telegram or Discord press (an
 * alert, an ephemeral note) shows under the message (a Google Chat click's note is a message of its own, only for
 * the clicker).
 */
function messageControls(entry) {
  const press = (control) => async () => {
    const res = await fetch("/api/press", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ person: view.person, ...pressOf(entry, control) }),
    });
    const answer = await res.json();
    if (!res.ok) alert(answer.error);
    else if (answer.note) pressNotes.set(entry.id, { person: view.person, note: answer.note });
  };
  const shown = pressNotes.get(entry.id);
  const note =
    shown && shown.person === view.person
      ? el("span", { class: "press-note", "data-testid": "press-note" }, shown.note)
      : null;
  return [
    ...(entry.controls ?? []).map((control) =>
      el(
        "button",
        {
          type: "button",
          class: `block-button ${control.style ?? ""}`,
          "data-testid": "block-button",
          "data-action": control.id,
          onclick: press(control),
        },
        control.label,
      ),
    ),
    note,
  ];
}

/** Slack's "add reaction", with the two a confirm tool's question listens for. */
function addReaction(entry) {
  const react = (reaction) => () =>
    postJson("/api/react", { person: view.person, workspace: entry.workspace, ts: entry.ts, reaction });
  return [
    ["white_check_mark", "✅", "react-approve"],
    ["x", "❌", "react-deny"],
  ].map(([name, emoji, testid]) =>
    el(
      "button",
      { type: "button", class: "add-reaction", "data-testid": testid, onclick: react(name), title: "Add reaction" },
      `+${emoji}`,
    ),
  );
}

/**
 * A bot's Slack message as Slack draws it: its buttons and its context line (an approval's outcome), then the way
 * to react; on a confirm tool's question, what its answers did so far: one that did not decide it (anyone else's,
 * or one too late) says so.
 */
function slackBotExtras(entry) {
  if (!entry.bot || entry.platform !== "slack" || !entry.ts) return [];
  const note = entry.note
    ? el("span", { class: "block-note", "data-testid": "block-note" }, ...drawView(entry.note))
    : null;
  const approval = approvalEvents(entry.ts);
  if (!approval) return [...messageControls(entry), note, ...addReaction(entry)];
  const decided = approval.answers.find((e) => e.decided);
  const ignored = approval.answers.some((e) => !e.decided && e.state === "pending");
  const state = decided
    ? `${decided.state === "approved" ? "approved" : "denied"} by the asker`
    : approval.ended
      ? `ended: ${approval.ended.outcome}`
      : ignored
        ? "an answer that was not the asker's changed nothing: only the asker decides"
        : "waiting for the asker";
  const done = Boolean(decided || approval.ended);
  return [
    ...messageControls(entry),
    note,
    ...addReaction(entry),
    el("span", { class: "approval-state", "data-testid": "approval-state", "data-done": String(done) }, state),
  ];
}

/** Threads start from a channel message (a person's or the bot's), not from an /ask and its answer. */
const threadable = (entry) => /^\d+$/.test(entry.id) && !entry.interactionToken && !entry.pending;

/** What the current person sees: a slash command and its ephemeral answer are only their own. */
const visible = (entry) => !entry.visibleTo || entry.visibleTo === view.person;

function renderChat() {
  const entries = view.timeline.entries.filter(visible);
  // Only the workspace in view: its #general has the same id as the other's, but not the same messages.
  const slack = entries.filter((e) => e.platform === "slack" && e.workspace === view.workspace);
  $("#slack-messages").replaceChildren(
    ...slack
      .filter((e) => !e.threadTs)
      .map((e) => {
        // A slash command and its answer are no message of the channel: nothing to reply to.
        if (!e.ts) return messageItem(e);
        const replies = slack.filter((r) => r.threadTs === e.ts).length;
        const open = el(
          "button",
          { type: "button", "data-testid": "open-thread", onclick: () => openThread("slack", e.ts) },
          replies ? `${replies} ${replies === 1 ? "reply" : "replies"}` : "Reply in thread",
        );
        return messageItem(e, [open, ...slackBotExtras(e)]);
      }),
  );
  if (view.thread) {
    $("#thread-messages").replaceChildren(
      ...slack
        .filter((e) => e.ts === view.thread || e.threadTs === view.thread)
        .map((e) => messageItem(e, slackBotExtras(e))),
    );
  }
  const discord = entries.filter((e) => e.platform === "discord");
  $("#discord-messages").replaceChildren(
    ...discord
      .filter((e) => !e.threadId)
      .map((e) => {
        // The buttons the Worker put on the bot's message (its components: Stop, Approve and Cancel, 👍 and 👎).
        const controls = e.bot ? messageControls(e) : [];
        if (!threadable(e) || !view.setup.discord.gateway) return messageItem(e, controls);
        const replies = discord.filter((r) => r.threadId === e.id).length;
        const open = el(
          "button",
          { type: "button", "data-testid": "open-discord-thread", onclick: () => openThread("discord", e.id) },
          replies ? `${replies} ${replies === 1 ? "message" : "messages"} in thread` : "Create thread",
        );
        return messageItem(e, [...controls, open]);
      }),
  );
  if (view.discordThread) {
    $("#discord-thread-messages").replaceChildren(
      ...discord
        .filter((e) => e.id === view.discordThread || e.threadId === view.discordThread)
        .map((e) => messageItem(e)),
    );
  }
  // Telegram: the group's topic in view, or the person's own private chat with the bot.
  const telegram = entries.filter(
    (e) => e.platform === "telegram" && e.place === view.setup.telegram.places[view.person][view.telegramSpot],
  );
  $("#telegram-messages").replaceChildren(...telegram.map((e) => messageItem(e, e.bot ? messageControls(e) : [])));
  // Google Chat: the space, each thread's messages under its first (the answer replies in the thread), or the DM.
  const { spacePlace, dmPlaces } = view.setup.googleChat;
  const gchatInView = view.gchatSpot === "dm" ? dmPlaces[view.person] : spacePlace;
  $("#gchat-messages").replaceChildren(...threaded(entries, "google-chat", gchatInView, view.gchatSpot === "space"));
  // Teams: the channel, each reply chain under its first post (the answer joins it), the group chat, or the 1:1 chat.
  const teams = view.setup.teams;
  const teamsInView = { channel: teams.channelPlace, group: teams.groupPlace, dm: teams.dmPlaces[view.person] };
  $("#teams-messages").replaceChildren(
    ...threaded(entries, "teams", teamsInView[view.teamsSpot], view.teamsSpot === "channel"),
  );
  const phone = currentPerson().phone;
  $("#sms-title").textContent = `${currentPerson().name}'s phone ↔ ${view.setup.sms.botNumber}`;
  $("#sms-messages").replaceChildren(
    ...entries.filter((e) => e.platform === "sms" && e.phone === phone).map((e) => messageItem(e)),
  );
  for (const list of document.querySelectorAll(".messages")) list.scrollTop = list.scrollHeight;
}

/**
 * The messages of `place` on `platform`; where each post at the top starts a thread (`threads`), every thread of it,
 * its replies under its first message.
 */
function threaded(entries, platform, place, threads) {
  const inView = entries.filter(
    (e) => e.platform === platform && (threads ? e.place.startsWith(place.slice(0, -1)) : e.place === place),
  );
  return [...new Set(inView.map((e) => e.place))].flatMap((thread) =>
    inView
      .filter((e) => e.place === thread)
      .map((e, i) => {
        const item = messageItem(e, e.bot ? messageControls(e) : []);
        if (i > 0 && threads) item.classList.add("in-thread");
        return item;
      }),
  );
}

/**
 * The thread panes: Slack's (view.thread, a parent's ts) and Discord's (view.discordThread, a starter message's id).
 */
const THREAD_PANES = {
  slack: { key: "thread", pane: "#thread-pane", input: "#thread-input" },
  discord: { key: "discordThread", pane: "#discord-thread-pane", input: "#discord-thread-input" },
};

function openThread(platform, id) {
  const pane = THREAD_PANES[platform];
  view[pane.key] = id;
  $(pane.pane).hidden = false;
  renderChat();
  placeChanged();
  $(pane.input).focus();
}

function closeThread(platform) {
  const pane = THREAD_PANES[platform];
  view[pane.key] = null;
  $(pane.pane).hidden = true;
  placeChanged();
}

async function pollTimeline() {
  const res = await fetch("/api/timeline");
  const text = await res.text();
  if (text !== lastTimeline) {
    lastTimeline = text;
    view.timeline = JSON.parse(text);
    renderChat();
    renderDecisions();
  }
}

async function send(form) {
  const input = form.querySelector("input:not([type=file])");
  const picker = form.querySelector("input[type=file]");
  const text = input.value.trim();
  const file = picker?.files?.[0] ?? form.pasted;
  if (!text && !file) return;
  input.value = "";
  const attachment = file ? await attached(file) : undefined;
  if (picker) picker.value = "";
  attach(form, null);
  const thread = form.hasAttribute("data-thread")
    ? form.dataset.platform === "slack"
      ? view.thread
      : view.discordThread
    : null;
  await post(form.dataset.platform, text, thread, attachment);
}

/** The file the message will carry (chosen, or pasted into its box), named beside the box; null: none. */
function attach(form, file) {
  const chip = form.querySelector(".attached");
  // A box that takes no file (Google Chat's: the tab sends text only) keeps none.
  if (!chip) return;
  form.pasted = file && !form.querySelector("input[type=file]")?.files?.length ? file : undefined;
  const name = file?.name ?? "";
  chip.hidden = !name;
  chip.replaceChildren(
    name ? `📎 ${name}` : "",
    name
      ? el(
          "span",
          {
            // A span, not a button: the form's one button sends it.
            role: "button",
            tabindex: "0",
            class: "unattach",
            "aria-label": "Remove the file",
            onclick: () => {
              const picker = form.querySelector("input[type=file]");
              if (picker) picker.value = "";
              attach(form, null);
            },
          },
          "×",
        )
      : "",
  );
}

/** A picture (or any file) pasted into a message box goes with the message, as on the platforms' own apps. */
function pastedFile(event) {
  const file = [...(event.clipboardData?.files ?? [])][0];
  if (!file) return null;
  event.preventDefault();
  // A pasted screenshot has no name of its own: it gets one, as the apps give it.
  return file.name
    ? file
    : new File([file], `pasted.${(file.type.split("/")[1] ?? "png").replace(/\W/g, "")}`, { type: file.type });
}

/** A chosen file as the simulator server takes it: its name, type and bytes in base64. */
function attached(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      resolve({ name: file.name, type: file.type, base64: String(reader.result).split(",")[1] ?? "" });
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** `thread`: the Slack thread's ts, or the Discord thread's id; `attachment`: a file pasted with the message. */
async function post(platform, text, thread, attachment) {
  const body = {
    platform,
    person: view.person,
    text,
    ...(attachment ? { attachment } : {}),
    ...(platform === "slack" ? { workspace: view.workspace } : {}),
    ...(thread ? (platform === "slack" ? { threadTs: thread } : { threadId: thread }) : {}),
    ...(platform === "discord" ? { discordMode: $("#discord-mode").value } : {}),
    ...(platform === "telegram" ? { telegramSpot: view.telegramSpot } : {}),
    ...(platform === "google-chat" ? { googleChatSpot: view.gchatSpot } : {}),
    ...(platform === "teams" ? { teamsSpot: view.teamsSpot } : {}),
  };
  const res = await fetch("/api/send", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) alert((await res.json()).error);
  await pollTimeline();
}

/** The current person sends the reset word where the inspector looks: the Worker starts that conversation afresh. */
async function newConversation() {
  await post(
    view.tab,
    view.setup.resetWord,
    view.tab === "slack" ? view.thread : view.tab === "discord" ? view.discordThread : null,
  );
  placeChanged();
}

async function clearAll() {
  if (!confirm("Clear all: empty the local Redis (every conversation, fact and queued job) and this page?")) return;
  const res = await fetch("/api/clear", { method: "POST" });
  if (!res.ok) return alert((await res.json()).error);
  closeThread("slack");
  closeThread("discord");
  await pollTimeline();
}

function selectTab(tab) {
  view.tab = tab;
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("active", b.dataset.tab === tab);
  for (const v of document.querySelectorAll(".view")) v.hidden = v.dataset.view !== tab;
  placeChanged();
}

/** Another workspace: its own channel, threads, decisions and conversation (the open thread was the other's). */
function selectWorkspace(team) {
  view.workspace = team;
  for (const b of document.querySelectorAll("#workspace-picker button"))
    b.classList.toggle("active", b.dataset.workspace === team);
  $("#workspace-name").textContent = view.setup.slack.workspaces.find((w) => w.team === team).name;
  view.thread = null;
  $("#thread-pane").hidden = true;
  renderChat();
  placeChanged();
}

function selectPerson(handle) {
  view.person = handle;
  for (const b of document.querySelectorAll("#person-picker button"))
    b.classList.toggle("active", b.dataset.person === handle);
  renderChat();
  const own =
    (view.tab === "telegram" && view.telegramSpot === "private") || view.tab === "google-chat" || view.tab === "teams";
  if (view.tab === "sms" || own) placeChanged();
}

/** The group's General topic, its forum topic, or the person's private chat with the bot. */
function selectTelegramSpot(spot) {
  view.telegramSpot = spot;
  for (const b of document.querySelectorAll("#telegram-spots button"))
    b.classList.toggle("active", b.dataset.spot === spot);
  const { group, topic } = view.setup.telegram;
  $("#telegram-title").textContent =
    spot === "private"
      ? `${currentPerson().name} ↔ ${view.setup.botName}`
      : `${group} › ${spot === "topic" ? topic : "General"}`;
  renderChat();
  placeChanged();
}

/** The Google Chat space (threads) or the person's DM with the app. */
function selectGoogleChatSpot(spot) {
  view.gchatSpot = spot;
  showSpot("#gchat-spots", "#gchat-title", spot === "dm" ? null : view.setup.googleChat.space);
}

/** The Teams channel (reply chains), the group chat, or the person's 1:1 chat with the bot. */
function selectTeamsSpot(spot) {
  view.teamsSpot = spot;
  const { channel, group } = view.setup.teams;
  showSpot("#teams-spots", "#teams-title", spot === "dm" ? null : spot === "group" ? group : `General › ${channel}`);
}

/** Marks the spot picked in `spots`, titles the chat (`title`; null: the person's own chat with the bot), redraws. */
function showSpot(spots, titleAt, title) {
  for (const b of document.querySelectorAll(`${spots} button`))
    b.classList.toggle("active", b.dataset.spot === (view.tab === "teams" ? view.teamsSpot : view.gchatSpot));
  $(titleAt).textContent = title ?? `${currentPerson().name} ↔ ${view.setup.botName}`;
  renderChat();
  placeChanged();
}

async function main() {
  const setup = await fetch("/api/setup");
  // Until `npm run dev` has installed the Slack workspaces (or if an install failed): say so, not a broken page.
  if (!setup.ok) {
    $("main").textContent = `${(await setup.json()).error} Reload the page in a moment.`;
    return;
  }
  view.setup = await setup.json();
  $("#person-picker").append(
    ...view.setup.people.map((p) =>
      el("button", { type: "button", "data-person": p.handle, onclick: () => selectPerson(p.handle) }, p.name),
    ),
  );
  const workspaces = view.setup.slack.workspaces;
  $("#workspace-picker").append(
    ...workspaces.map((w) =>
      el("button", { type: "button", "data-workspace": w.team, onclick: () => selectWorkspace(w.team) }, w.name),
    ),
  );
  $("#workspace-picker").hidden = workspaces.length < 2;
  view.workspace = workspaces[0].team;
  $("#workspace-name").textContent = workspaces[0].name;
  $("#workspace-picker button")?.classList.add("active");
  for (const b of document.querySelectorAll("#tabs button"))
    b.addEventListener("click", () => selectTab(b.dataset.tab));
  for (const form of document.querySelectorAll(".composer")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void send(form);
    });
    const picker = form.querySelector("input[type=file]");
    picker?.addEventListener("change", () => attach(form, picker.files?.[0] ?? null));
    form.querySelector("input:not([type=file])").addEventListener("paste", (event) => {
      const file = pastedFile(event);
      if (file) attach(form, file);
    });
  }
  $("#thread-close").addEventListener("click", () => closeThread("slack"));
  $("#discord-thread-close").addEventListener("click", () => closeThread("discord"));
  $("#new-conversation").addEventListener("click", () => void newConversation());
  $("#new-conversation").title = `Sends “${view.setup.resetWord}” as the person typing, where the inspector looks`;
  $("#clear-all").addEventListener("click", () => void clearAll());
  $("#clear-all").hidden = !view.setup.canClear;
  // Without the Gateway fake, a bot sees no plain channel messages: only /ask reaches it.
  if (!view.setup.discord.gateway) {
    $("#discord-mode").value = "ask";
    $("#discord-mode").disabled = true;
  }
  for (const input of ["#slack-input", "#discord-input", "#telegram-input", "#gchat-input", "#teams-input"])
    $(input).placeholder = `Message (mention the bot with @${view.setup.botName})`;
  const { group, topic } = view.setup.telegram;
  const spots = [
    ["general", `${group} › General`],
    ["topic", `${group} › ${topic}`],
    ["private", "Private chat"],
  ];
  $("#telegram-spots").append(
    ...spots.map(([spot, label]) =>
      el("button", { type: "button", "data-spot": spot, onclick: () => selectTelegramSpot(spot) }, label),
    ),
  );
  selectTelegramSpot("general");
  const chatSpots = [
    ["space", `Space › ${view.setup.googleChat.space}`],
    ["dm", "Direct message"],
  ];
  $("#gchat-spots").append(
    ...chatSpots.map(([spot, label]) =>
      el("button", { type: "button", "data-spot": spot, onclick: () => selectGoogleChatSpot(spot) }, label),
    ),
  );
  selectGoogleChatSpot("space");
  const teamsSpots = [
    ["channel", `Channel › ${view.setup.teams.channel}`],
    ["group", `Group chat › ${view.setup.teams.group}`],
    ["dm", "1:1 chat"],
  ];
  $("#teams-spots").append(
    ...teamsSpots.map(([spot, label]) =>
      el("button", { type: "button", "data-spot": spot, onclick: () => selectTeamsSpot(spot) }, label),
    ),
  );
  selectTeamsSpot("channel");
  selectPerson(view.person);
  const loop = (fn, ms) => {
    const tick = () =>
      fn()
        .catch(() => {})
        .finally(() => setTimeout(tick, ms));
    tick();
  };
  loop(pollTimeline, POLL_MS);
  loop(pollState, STATE_POLL_MS);
}

void main();
