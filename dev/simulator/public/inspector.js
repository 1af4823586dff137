// The simulator page's inspector: the Worker's decisions for the conversation in view, its stored state and the
// prompts of its answers, and the Slack workspace's installation as the admin view has it.
import { $, APPROVAL_ANSWERS, approvalEnd, currentPlace, el, eventMessageKey, view } from "./view.js";

let lastState = "";
/** The prompts (and model calls) the person opened: they stay open however often the panel is drawn again. */
const openDetails = new Set();

/** A `<details>` that remembers being opened under `key`. */
function remembered(key, attrs, ...children) {
  const details = el("details", { ...attrs, "data-key": key, open: openDetails.has(key) ? "" : null }, ...children);
  details.addEventListener("toggle", () => (details.open ? openDetails.add(key) : openDetails.delete(key)));
  return details;
}

const outcomeFor = (id) =>
  view.timeline.workerEvents.findLast((e) => e.event === "job_ended" && eventMessageKey(e, e.trigger) === id);

/**
 * The conversation a decision belongs to: its message's place, else (a message the page did not send) its channel's.
 */
function placeOfDecision(decision, byId) {
  return (
    byId.get(eventMessageKey(decision, decision.message))?.place ??
    `${decision.platform}|${decision.tenant}|${decision.channel}|`
  );
}

export function renderDecisions() {
  const place = currentPlace();
  const byId = new Map(view.timeline.entries.map((e) => [e.id, e]));
  const items = view.timeline.workerEvents
    .filter((e) => e.event === "decision" && placeOfDecision(e, byId) === place)
    .map((d) => {
      const key = eventMessageKey(d, d.message);
      const message = byId.get(key);
      const outcome = outcomeFor(key);
      const posted = view.timeline.workerEvents.findLast(
        (e) => e.event === "reply_posted" && e.platform === d.platform && e.trigger === d.message,
      );
      const rescue = rescueOf(key);
      const result = outcome
        ? `job: ${outcome.outcome}${posted ? `, prompt ${posted.prompt_tokens} tokens` : ""}`
        : rescue
          ? rescue
          : d.respond === "no"
            ? null
            : "job queued…";
      return el(
        "li",
        { class: "decision", "data-testid": "decision", "data-respond": d.respond, "data-reason": d.reason },
        el("span", {}, message ? message.author : d.author),
        el("span", { class: `badge ${d.respond}` }, d.respond),
        el(
          "span",
          { class: "reason" },
          d.reason,
          d.score !== undefined
            ? el("span", { class: "muted", "data-testid": "score" }, ` (score ${d.score.toFixed(2)})`)
            : null,
          message ? el("span", { class: "muted" }, ` — “${message.text.slice(0, 60)}”`) : null,
        ),
        result ? el("span", { class: "outcome" }, result) : null,
      );
    });
  const rows = [...items, ...approvalRows(place)].reverse();
  $("#decisions").replaceChildren(...(rows.length ? rows : [el("li", { class: "muted" }, "No messages yet.")]));
}

/**
 * Each confirm tool's question asked in the place in view (docs/tools.md): the tool, then what became of it, from
 * the Worker's approval log lines: every answer to it, a reaction or a press (one that did not decide it says so),
 * and its end.
 */
function approvalRows(place) {
  const events = view.timeline.workerEvents;
  return events
    .filter(
      (e) =>
        e.event === "approval_opened" && `${e.platform}|${e.tenant}|${e.channel}|` === place.replace(/\|[^|]*$/, "|"),
    )
    .map((opened) => {
      const answers = events.filter((e) => APPROVAL_ANSWERS.has(e.event) && e.message === opened.question);
      const ended = approvalEnd(events, opened);
      const steps = [
        ...answers.map((r) => {
          const how = `${r.event === "approval_control" ? "pressed " : ""}${r.verdict === "approve" ? "✅" : "❌"}`;
          return r.decided ? `${how} ${r.state}` : `${how} ignored (not the asker's, or too late)`;
        }),
        ...(ended ? [`ended: ${ended.outcome}`] : []),
      ];
      return el(
        "li",
        { class: "decision approval", "data-testid": "approval", "data-tool": opened.tool },
        el("span", {}, "approval"),
        el("span", { class: "badge judge" }, "ask"),
        el(
          "span",
          { class: "reason" },
          opened.tool,
          el("span", { class: "muted" }, " — runs only on the asker's Approve or ✅"),
        ),
        el("span", { class: "outcome", "data-testid": "approval-steps" }, steps.join(" · ") || "waiting for the asker"),
      );
    });
}

/** A question nobody was asked to answer: its rescue, once it ended, or while it waits. */
function rescueOf(key) {
  const ended = view.timeline.workerEvents.findLast(
    (e) => e.event === "rescue_ended" && eventMessageKey(e, e.trigger) === key,
  );
  if (ended) return `rescue: ${ended.outcome}`;
  const scheduled = view.timeline.workerEvents.findLast(
    (e) => e.event === "rescue_scheduled" && eventMessageKey(e, e.message) === key,
  );
  return scheduled ? `rescue in ${Math.round(scheduled.seconds / 60)} min if nobody answers` : null;
}

/** The channel's own settings (`/parley`), as the admin view has them. */
function renderSettings(answer) {
  const s = answer?.placeSettings;
  const text = s
    ? `initiative ${s.initiative ? "on" : "off"} (eagerness ${s.eagerness}) · rescue ${s.rescue ? `on${s.rescueMinutes ? ` (${s.rescueMinutes} min)` : ""}` : "off"}`
    : "—";
  $("#settings").textContent = `Channel settings (/parley): ${text}`;
}

function renderState(answer) {
  $("#place").textContent = currentPlace();
  renderSettings(answer);
  if (!answer?.active) {
    $("#state").replaceChildren(
      el(
        "p",
        { class: "muted" },
        "No active conversation here: the bot joins when addressed (mention it, /ask, or text it).",
      ),
    );
    $("#prompts").replaceChildren(el("p", { class: "muted" }, answer?.error ? answer.error : "None yet."));
    return;
  }
  const c = answer.conversation;
  $("#state").replaceChildren(
    el(
      "dl",
      { "data-testid": "conversation-state" },
      el("dt", {}, "participants"),
      el(
        "dd",
        { "data-testid": "participants" },
        c.participants.map((p) => `${participantName(p)} (${p.messages})`).join(", "),
      ),
      el("dt", {}, "expires in"),
      el("dd", { "data-testid": "expires-in" }, `${c.expiresInSeconds} s of inactivity`),
      el("dt", {}, "parent"),
      el(
        "dd",
        { "data-testid": "parent" },
        (c.parents ?? []).map((p) => `${p.authorName}: ${p.text}`).join(" · ") || "—",
      ),
      el("dt", {}, "messages"),
      el("dd", {}, String(c.messages.length)),
      el("dt", {}, "summary"),
      el("dd", {}, c.summary ?? "—"),
    ),
  );
  const prompts = answer.answers.map((a) => {
    const key = `${a.triggerId}:${a.at}`;
    const calls = a.calls ?? [];
    return remembered(
      key,
      { class: "prompt", "data-testid": "prompt" },
      el(
        "summary",
        {},
        `${new Date(a.at).toLocaleTimeString()} · ${a.kind} · ${a.reason} · `,
        calls.length ? `${calls.length} model ${calls.length === 1 ? "call" : "calls"} · ` : "",
        el("b", { "data-testid": "prompt-tokens" }, `${a.promptTokens} tokens`),
        a.droppedMessages ? ` · ${a.droppedMessages} dropped` : "",
        recalledNote(a.triggerId),
      ),
      ...(calls.length
        ? calls.map((call, i) => modelCall(`${key}:call:${i}`, call, i))
        : [el("pre", {}, promptText(a.messages))]),
      ...(a.toolRounds ?? []).map((round, i) => el("pre", { "data-testid": "tool-round" }, toolRoundText(round, i))),
      ...(a.approval ? [el("pre", { "data-testid": "tool-approval" }, approvalText(a.approval))] : []),
    );
  });
  $("#prompts").replaceChildren(...(prompts.length ? prompts : [el("p", { class: "muted" }, "None yet.")]));
}

const promptText = (messages) => messages.map((m) => `[${m.role}]\n${m.content}`).join("\n\n");

/** One model call of an answer made of several (a catch-up's chunk or combining call), with its prompt. */
function modelCall(key, call, index) {
  return remembered(
    key,
    { class: "call", "data-testid": "model-call" },
    el("summary", {}, `call ${index + 1} · ${call.label} · ${call.tokens} tokens`),
    el(
      "pre",
      {},
      call.omitted ? "(prompt not kept: the trace keeps the first prompts only)" : promptText(call.messages),
    ),
  );
}

/** A tool round of an answer (docs/tools.md): each call, what the model read of its result, and the round's time. */
function toolRoundText(round, index) {
  const calls = round.calls.map((c) => `${c.tool} ${c.arguments}\n→ ${c.result}`);
  return [`[tool round ${index + 1} · ${round.ms} ms]`, ...calls].join("\n");
}

/** A confirm tool's call the answer asked a person to approve: it runs only on the asker's ✅ on the question. */
function approvalText(approval) {
  return `[approval asked]\n${approval.tool} ${approval.arguments}\n→ runs only on the asker's ✅ on the question; ❌, or no answer within APPROVAL_TTL_MINUTES, cancels it`;
}

/**
 * What recall put into an answer's prompt (the passages are in its data block as `earlier` lines), with their scores.
 */
function recalledNote(triggerId) {
  const recalled = view.timeline.workerEvents.findLast((e) => e.event === "recalled" && e.trigger === triggerId);
  if (!recalled || recalled.passages === 0) return "";
  return el(
    "span",
    { "data-testid": "prompt-recalled" },
    ` · recalled ${recalled.passages} (scores ${recalled.scores.join(", ")}; ${recalled.tokens} tokens)`,
  );
}

/** SMS conversations name every texter alike (the prompt needs no phone numbers): the page knows whose phone it is. */
function participantName(participant) {
  return view.setup.people.find((p) => p.phone === participant.id)?.name ?? participant.name;
}
/** The inspector follows the conversation in view: the channel, the open thread, or the current person's phone. */
export function placeChanged() {
  lastState = "";
  renderDecisions();
  void pollState();
}

export async function pollState() {
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
  const how = i
    ? `installed ${new Date(i.installedAt).toLocaleTimeString()} through /slack/install, bot ${i.botUserId}`
    : "no installation: single-workspace mode (SLACK_BOT_TOKEN)";
  const usage = tenant.usage?.budget ? ` · ${tenant.usage.tokens} of ${tenant.usage.budget} model tokens today` : "";
  $("#tenant").textContent = `Workspace ${name} (${tenant.tenant}) · ${how}${usage}`;
}
