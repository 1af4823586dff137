/**
 * @module
 * What Slack's client draws of a bot message's Block Kit beyond its text (./bot-posts.ts): its `markdown` block as
 * Markdown, the buttons of its `actions` blocks and the feedback buttons of its `context_actions` blocks (pressed
 * through `/api/press`, ./actions.ts), and its `context`
 * line (an approval's outcome); and the ephemeral notes chat.postEphemeral showed one person, to that person only.
 */
import { z } from "zod";
import { PEOPLE, SLACK_CHANNEL } from "./people.ts";
import type { MessageControl, Timeline } from "./timeline.ts";
import { markdownView, SLACK_MARKDOWN } from "./views/markdown-view.ts";
import { mrkdwnView } from "./views/mrkdwn-view.ts";
import type { ViewNode } from "./views/view.ts";

const feedbackButton = z.looseObject({ text: z.unknown(), value: z.string() }).optional().catch(undefined);
const element = z.looseObject({
  type: z.string(),
  action_id: z.string().optional(),
  value: z.string().optional(),
  text: z.unknown().optional(),
  style: z.enum(["primary", "danger"]).optional().catch(undefined),
  positive_button: feedbackButton,
  negative_button: feedbackButton,
});
const block = z.looseObject({
  type: z.string(),
  block_id: z.string().optional(),
  text: z.unknown().optional(),
  elements: z.array(element).optional(),
});
/** A message's blocks as the fake keeps them (what chat.postMessage or chat.update gave it). */
export const slackBlocks = z.array(block).optional();

export interface DrawnBlocks {
  /** The markdown block's text as Slack draws it, when the message has one. */
  view?: ViewNode[];
  controls: MessageControl[];
  /** The context line (mrkdwn), as Slack draws it. */
  note?: ViewNode[];
}

/** A text object's text (`{type: "plain_text", text}`), or a plain string's. */
function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  const parsed = z.looseObject({ text: z.string() }).safeParse(value);
  return parsed.success ? parsed.data.text : undefined;
}

/** A `context_actions` block's feedback buttons (👍 then 👎), each pressed with its `value`. */
function feedbackControls(block: string, elements: z.output<typeof element>[] = []): MessageControl[] {
  return elements.flatMap((e) =>
    e.type !== "feedback_buttons" || !e.action_id
      ? []
      : [e.positive_button, e.negative_button].flatMap((button) =>
          button ? [{ id: e.action_id!, block, label: textOf(button.text) ?? button.value, value: button.value }] : [],
        ),
  );
}

export function drawBlocks(blocks: z.output<typeof slackBlocks>, nameOf: (user: string) => string): DrawnBlocks {
  const drawn: DrawnBlocks = { controls: [] };
  for (const b of blocks ?? []) {
    const text = textOf(b.text);
    if (b.type === "markdown" && text !== undefined) drawn.view = markdownView(text, SLACK_MARKDOWN);
    if (b.type === "context")
      drawn.note = mrkdwnView((b.elements ?? []).map((e) => textOf(e.text) ?? "").join(" "), nameOf);
    if (b.type === "context_actions" && b.block_id) drawn.controls.push(...feedbackControls(b.block_id, b.elements));
    if (b.type !== "actions" || !b.block_id) continue;
    for (const e of b.elements ?? []) {
      if (e.type !== "button" || !e.action_id) continue;
      const style = e.style ? { style: e.style } : {};
      drawn.controls.push({
        id: e.action_id,
        block: b.block_id,
        label: textOf(e.text) ?? e.action_id,
        ...style,
        ...(e.value !== undefined ? { value: e.value } : {}),
      });
    }
  }
  return drawn;
}

const ephemeral = z.looseObject({
  team: z.string(),
  channel: z.string(),
  user: z.string(),
  text: z.string(),
  message_ts: z.string(),
  thread_ts: z.string().optional(),
});

/** Each note chat.postEphemeral showed one person in the channel: an entry only they see, marked so. */
export async function collectSlackEphemerals(
  timeline: Timeline,
  slackFakeUrl: string,
  botName: string,
  nameOf: (user: string) => string,
): Promise<void> {
  const res = await fetch(`${slackFakeUrl}/__ephemerals?channel=${SLACK_CHANNEL}`);
  if (!res.ok) throw new Error(`${slackFakeUrl}/__ephemerals answered ${res.status}`);
  for (const note of z.array(ephemeral).parse(await res.json())) {
    const id = `ephemeral:${note.message_ts}`;
    const person = PEOPLE.find((p) => p.slackUserId === note.user);
    if (!person || timeline.entries.some((e) => e.id === id)) continue;
    timeline.add({
      id,
      platform: "slack",
      author: botName,
      bot: true,
      text: note.text,
      view: mrkdwnView(note.text, nameOf),
      visibleTo: person.handle,
      at: Date.now(),
      place: `slack|${note.team}|${note.channel}|${note.thread_ts ?? ""}`,
      workspace: note.team,
      ...(note.thread_ts ? { threadTs: note.thread_ts } : {}),
    });
  }
}
