// Parley simulator page: sends what the chosen person types through the simulator server (which signs it like the
// platform would), and polls the conversation, the Worker's decisions and the admin view of the current conversation.
const POLL_MS = 700;
const STATE_POLL_MS = 1500;
const $ = (selector) => document.querySelector(selector);

// `workspace`: the Slack workspace in view (its team id); `thread`: the open Slack thread (its parent's ts);
// `discordThread`: the open Discord thread (its starter message's id).
const view = { tab: "slack", person: "alice", workspace: null, thread: null, discordThread: null, setup: null, timeline: { entries: [], workerEvents: [] } };
let lastTimeline = "";
let lastState = "";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null) node.setAttribute(key, value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

const decisionFor = (id) => view.timeline.workerEvents.findLast((e) => e.event === "decision" && e.message === id);
const outcomeFor = (id) => view.timeline.workerEvents.findLast((e) => e.event === "job_ended" && e.trigger === id);

function badge(decision) {
  if (!decision) return null;
  return el("span", { class: `badge ${decision.respond}`, "data-testid": "decision-badge", "data-reason": decision.reason }, `${decision.respond} · ${decision.reason}`);
}

function messageItem(entry, extra = []) {
  const mine = !entry.bot && entry.author === currentPerson().name;
  return el(
    "li",
    { class: `message${entry.bot ? " bot" : ""}${entry.pending ? " pending" : ""}${mine ? " mine" : ""}`, "data-id": entry.id, "data-author": entry.author },
    el("span", { class: "author" }, entry.author),
    el("span", { class: "text" }, entry.text),
    el("div", { class: "meta" }, el("time", {}, new Date(entry.at).toLocaleTimeString()), entry.bot ? null : badge(decisionFor(entry.id)), ...extra),
  );
}

const currentPerson = () => view.setup.people.find((p) => p.handle === view.person);

/** The admin-view key of the conversation the inspector shows. */
function currentPlace() {
  // The place ends with the empty thread part (`slack|T|C|`): a thread fills it in.
  if (view.tab === "slack") return `slack|${view.workspace}|${view.setup.slack.channelId}|${view.thread ?? ""}`;
  if (view.tab === "discord") return view.discordThread ? discordThreadPlace(view.discordThread) : view.setup.discord.place;
  return `${view.setup.sms.placePrefix}${currentPerson().phone}|`;
}

/** A Discord thread is a channel of its own, with the id of the message it was started from. */
function discordThreadPlace(id) {
  const [platform, guild] = view.setup.discord.place.split("|");
  return `${platform}|${guild}|${id}|`;
}

/** Threads start from a channel message (a person's or the bot's), not from an /ask and its answer. */
const threadable = (entry) => /^\d+$/.test(entry.id) && !entry.interactionToken && !entry.pending;

function renderChat() {
  const entries = view.timeline.entries;
  // Only the workspace in view: its #general has the same id as the other's, but not the same messages.
  const slack = entries.filter((e) => e.platform === "slack" && e.workspace === view.workspace);
  $("#slack-messages").replaceChildren(
    ...slack.filter((e) => !e.threadTs).map((e) => {
      const replies = slack.filter((r) => r.threadTs === e.ts).length;
      const open = el("button", { type: "button", "data-testid": "open-thread", onclick: () => openThread("slack", e.ts) }, replies ? `${replies} ${replies === 1 ? "reply" : "replies"}` : "Reply in thread");
      return messageItem(e, [open]);
    }),
  );
  if (view.thread) {
    $("#thread-messages").replaceChildren(...slack.filter((e) => e.ts === view.thread || e.threadTs === view.thread).map((e) => messageItem(e)));
  }
  const discord = entries.filter((e) => e.platform === "discord");
  $("#discord-messages").replaceChildren(
    ...discord.filter((e) => !e.threadId).map((e) => {
      if (!threadable(e) || !view.setup.discord.gateway) return messageItem(e);
      const replies = discord.filter((r) => r.threadId === e.id).length;
      const open = el("button", { type: "button", "data-testid": "open-discord-thread", onclick: () => openThread("discord", e.id) }, replies ? `${replies} ${replies === 1 ? "message" : "messages"} in thread` : "Create thread");
      return messageItem(e, [open]);
    }),
  );
  if (view.discordThread) {
    $("#discord-thread-messages").replaceChildren(...discord.filter((e) => e.id === view.discordThread || e.threadId === view.discordThread).map((e) => messageItem(e)));
  }
  const phone = currentPerson().phone;
  $("#sms-title").textContent = `${currentPerson().name}'s phone ↔ ${view.setup.sms.botNumber}`;
  $("#sms-messages").replaceChildren(...entries.filter((e) => e.platform === "sms" && e.phone === phone).map((e) => messageItem(e)));
  for (const list of document.querySelectorAll(".messages")) list.scrollTop = list.scrollHeight;
}

/** The conversation a decision belongs to: its message's place, else (a message the page did not send) its channel's. */
function placeOfDecision(decision, byId) {
  return byId.get(decision.message)?.place ?? `${decision.platform}|${decision.tenant}|${decision.channel}|`;
}

function renderDecisions() {
  const place = currentPlace();
  const byId = new Map(view.timeline.entries.map((e) => [e.id, e]));
  const items = view.timeline.workerEvents
    .filter((e) => e.event === "decision" && placeOfDecision(e, byId) === place)
    .map((d) => {
      const message = byId.get(d.message);
      const outcome = outcomeFor(d.message);
      const posted = view.timeline.workerEvents.findLast((e) => e.event === "reply_posted" && e.trigger === d.message);
      const result = outcome ? `job: ${outcome.outcome}${posted ? `, prompt ${posted.prompt_tokens} tokens` : ""}` : d.respond === "no" ? null : "job queued…";
      return el(
        "li",
        { class: "decision", "data-testid": "decision", "data-respond": d.respond, "data-reason": d.reason },
        el("span", {}, message ? message.author : d.author),
        el("span", { class: `badge ${d.respond}` }, d.respond),
        el("span", { class: "reason" }, d.reason, message ? el("span", { class: "muted" }, ` — “${message.text.slice(0, 60)}”`) : null),
        result ? el("span", { class: "outcome" }, result) : null,
      );
    });
  $("#decisions").replaceChildren(...(items.length ? items.reverse() : [el("li", { class: "muted" }, "No messages yet.")]));
}

function renderState(answer) {
  $("#place").textContent = currentPlace();
  if (!answer || !answer.active) {
    $("#state").replaceChildren(el("p", { class: "muted" }, "No active conversation here: the bot joins when addressed (mention it, /ask, or text it)."));
    $("#prompts").replaceChildren(el("p", { class: "muted" }, answer && answer.error ? answer.error : "None yet."));
    return;
  }
  const c = answer.conversation;
  $("#state").replaceChildren(
    el(
      "dl",
      { "data-testid": "conversation-state" },
      el("dt", {}, "participants"), el("dd", { "data-testid": "participants" }, c.participants.map((p) => `${participantName(p)} (${p.messages})`).join(", ")),
      el("dt", {}, "expires in"), el("dd", { "data-testid": "expires-in" }, `${c.expiresInSeconds} s of inactivity`),
      el("dt", {}, "parent"), el("dd", { "data-testid": "parent" }, (c.parents ?? []).map((p) => `${p.authorName}: ${p.text}`).join(" · ") || "—"),
      el("dt", {}, "messages"), el("dd", {}, String(c.messages.length)),
      el("dt", {}, "summary"), el("dd", {}, c.summary ?? "—"),
    ),
  );
  const prompts = answer.answers.map((a) =>
    el(
      "details",
      { class: "prompt", "data-testid": "prompt" },
      el("summary", {}, `${new Date(a.at).toLocaleTimeString()} · ${a.kind} · ${a.reason} · `, el("b", { "data-testid": "prompt-tokens" }, `${a.promptTokens} tokens`), a.droppedMessages ? ` · ${a.droppedMessages} dropped` : "", recalledNote(a.triggerId)),
      el("pre", {}, a.messages.map((m) => `[${m.role}]\n${m.content}`).join("\n\n")),
    ),
  );
  $("#prompts").replaceChildren(...(prompts.length ? prompts : [el("p", { class: "muted" }, "None yet.")]));
}

/** What recall put into an answer's prompt (the passages are in its data block as `earlier` lines), with their scores. */
function recalledNote(triggerId) {
  const recalled = view.timeline.workerEvents.findLast((e) => e.event === "recalled" && e.trigger === triggerId);
  if (!recalled || recalled.passages === 0) return "";
  return el("span", { "data-testid": "prompt-recalled" }, ` · recalled ${recalled.passages} (scores ${recalled.scores.join(", ")}; ${recalled.tokens} tokens)`);
}

/** SMS conversations name every texter alike (the prompt needs no phone numbers): the page knows whose phone it is. */
function participantName(participant) {
  return view.setup.people.find((p) => p.phone === participant.id)?.name ?? participant.name;
}

/** The inspector follows the conversation in view: the channel, the open thread, or the current person's phone. */
function placeChanged() {
  lastState = "";
  renderDecisions();
  void pollState();
}

/** The thread panes: Slack's (view.thread, a parent's ts) and Discord's (view.discordThread, a starter message's id). */
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

async function pollState() {
  const [answer, tenant] = await Promise.all([
    fetch(`/api/conversation?place=${encodeURIComponent(currentPlace())}`).then((r) => r.text()),
    view.tab === "slack" ? fetch(`/api/tenant?tenant=${encodeURIComponent(view.workspace)}`).then((r) => r.text()) : "",
  ]);
  if (answer + tenant !== lastState) {
    lastState = answer + tenant;
    renderState(JSON.parse(answer));
    renderTenant(tenant ? JSON.parse(tenant) : null);
  }
}

/** The Slack workspace in view as the admin view has it: each tenant its own installation (and model tokens). */
function renderTenant(tenant) {
  $("#tenant").hidden = !tenant;
  if (!tenant) return;
  const name = view.setup.slack.workspaces.find((w) => w.team === tenant.tenant)?.name ?? tenant.tenant;
  const i = tenant.installation;
  const how = i ? `installed ${new Date(i.installedAt).toLocaleTimeString()} through /slack/install, bot ${i.botUserId}` : "no installation: single-workspace mode (SLACK_BOT_TOKEN)";
  const usage = tenant.usage?.budget ? ` · ${tenant.usage.tokens} of ${tenant.usage.budget} model tokens today` : "";
  $("#tenant").textContent = `Workspace ${name} (${tenant.tenant}) · ${how}${usage}`;
}

async function send(form) {
  const input = form.querySelector("input");
  const text = input.value.trim();
  if (!text) return;
  input.value = "";
  const thread = form.hasAttribute("data-thread") ? (form.dataset.platform === "slack" ? view.thread : view.discordThread) : null;
  await post(form.dataset.platform, text, thread);
}

/** `thread`: the Slack thread's ts, or the Discord thread's id. */
async function post(platform, text, thread) {
  const body = {
    platform,
    person: view.person,
    text,
    ...(platform === "slack" ? { workspace: view.workspace } : {}),
    ...(thread ? (platform === "slack" ? { threadTs: thread } : { threadId: thread }) : {}),
    ...(platform === "discord" ? { discordMode: $("#discord-mode").value } : {}),
  };
  const res = await fetch("/api/send", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) alert((await res.json()).error);
  await pollTimeline();
}

/** The current person sends the reset word where the inspector looks: the Worker starts that conversation afresh. */
async function newConversation() {
  await post(view.tab, view.setup.resetWord, view.tab === "slack" ? view.thread : view.tab === "discord" ? view.discordThread : null);
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
  for (const b of document.querySelectorAll("#workspace-picker button")) b.classList.toggle("active", b.dataset.workspace === team);
  $("#workspace-name").textContent = view.setup.slack.workspaces.find((w) => w.team === team).name;
  view.thread = null;
  $("#thread-pane").hidden = true;
  renderChat();
  placeChanged();
}

function selectPerson(handle) {
  view.person = handle;
  for (const b of document.querySelectorAll("#person-picker button")) b.classList.toggle("active", b.dataset.person === handle);
  renderChat();
  if (view.tab === "sms") placeChanged();
}

async function main() {
  const setup = await fetch("/api/setup");
  // Until `npm run dev` has installed the Slack workspaces (or if an install failed): say so, not a broken page.
  if (!setup.ok) return void ($("main").textContent = `${(await setup.json()).error} Reload the page in a moment.`);
  view.setup = await setup.json();
  $("#person-picker").append(...view.setup.people.map((p) => el("button", { type: "button", "data-person": p.handle, onclick: () => selectPerson(p.handle) }, p.name)));
  const workspaces = view.setup.slack.workspaces;
  $("#workspace-picker").append(...workspaces.map((w) => el("button", { type: "button", "data-workspace": w.team, onclick: () => selectWorkspace(w.team) }, w.name)));
  $("#workspace-picker").hidden = workspaces.length < 2;
  view.workspace = workspaces[0].team;
  $("#workspace-name").textContent = workspaces[0].name;
  $("#workspace-picker button")?.classList.add("active");
  for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => selectTab(b.dataset.tab));
  for (const form of document.querySelectorAll(".composer")) form.addEventListener("submit", (event) => { event.preventDefault(); void send(form); });
  $("#thread-close").addEventListener("click", () => closeThread("slack"));
  $("#discord-thread-close").addEventListener("click", () => closeThread("discord"));
  $("#new-conversation").addEventListener("click", () => void newConversation());
  $("#new-conversation").title = `Sends “${view.setup.resetWord}” as the person typing, where the inspector looks`;
  $("#clear-all").addEventListener("click", () => void clearAll());
  $("#clear-all").hidden = !view.setup.canClear;
  // Without the Gateway fake, a bot sees no plain channel messages: only /ask reaches it.
  if (!view.setup.discord.gateway) { $("#discord-mode").value = "ask"; $("#discord-mode").disabled = true; }
  for (const input of ["#slack-input", "#discord-input"]) $(input).placeholder = `Message #general (mention the bot with @${view.setup.botName})`;
  selectPerson(view.person);
  const loop = (fn, ms) => { const tick = () => fn().catch(() => {}).finally(() => setTimeout(tick, ms)); tick(); };
  loop(pollTimeline, POLL_MS);
  loop(pollState, STATE_POLL_MS);
}

void main();
