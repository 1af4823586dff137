/**
 * @module
 * `node bench/files/run.ts [--json] [--mentions N] [--history N]`: what pasted pictures cost, on bench/load's local
 * stack (the Worker in workerd, loopback only). Slack mentions in as many channels, one in ten carrying a
 * 1280×720 screenshot-like PNG: the webhook's Redis commands per message with and without a picture (job deliveries
 * held meanwhile, as bench/load measures them) and the bytes fetched while the webhooks ran; then, the jobs let
 * through, the time each answer's job spent reading its pictures (p50/p95 per picture) and the bytes fetched per
 * answer with a picture. Last, two conversations of `history` answered mentions: one whose last message alone
 * carries a screenshot, one where every message does; the last answer's prompt tokens of each, and their ratio.
 */
import { z } from "zod";
import { defineCommand, parseBoundedOptions } from "../../dev/cli.ts";
import { encodeRgbPng } from "../../dev/files/png.ts";
import { costOf, jobsSettled } from "../load/phases.ts";
import { startStack } from "../load/stack.ts";
import { percentile, round } from "../load/stats.ts";
import * as traffic from "../load/traffic.ts";
import { startParleyOn } from "../load/workers.ts";

const command = defineCommand({
  name: "npm run bench:files",
  summary:
    "Measures what pasted pictures cost on the local stack: webhook Redis commands with and without one, job time per picture, bytes fetched per answer, prompt tokens of a conversation of screenshots.",
  options: {
    json: { type: "boolean", default: false, description: "end with one JSON line of the figures" },
    mentions: {
      type: "string",
      default: "100",
      valueName: "n",
      description: "mentions, one in ten with a picture, 10-1000 (100)",
    },
    history: {
      type: "string",
      default: "20",
      valueName: "n",
      description: "messages of each conversation in the prompt comparison, 2-40 (20)",
    },
  },
});
const args = parseBoundedOptions(
  command,
  z.object({
    json: z.boolean(),
    mentions: z.coerce.number().int().min(10).max(1_000),
    history: z.coerce.number().int().min(2).max(40),
  }),
);

// Every JSON line printed in this process is the Worker's or a stand-in's log: read for the figures, not shown.
const events: Record<string, unknown>[] = [];
const print = console.log.bind(console);
const keep = (...line: unknown[]) => {
  const text = line
    .map(String)
    .join(" ")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal's colour codes (ESC [ … m)
    .replace(/\u001b\[[0-9;]*m/g, "");
  const start = text.indexOf('{"event"');
  if (start >= 0) events.push(JSON.parse(text.slice(start, text.lastIndexOf("}") + 1)) as Record<string, unknown>);
};
console.log = console.info = console.warn = console.error = keep;

const TEAM = "T0FAKETEAM";
/** A screenshot's look and weight: a light page with rows of dark "text" noise, deterministic. */
function screenshot(seed: number): string {
  const [w, h] = [1280, 720];
  const rgb = new Uint8Array(w * h * 3).fill(245);
  let state = seed;
  for (let y = 40; y < h - 40; y += 24) {
    for (let x = 40; x < w - 40; x++) {
      state = (state * 1_103_515_245 + 12_345) >>> 0;
      if (state % 3 === 0)
        for (let dy = 0; dy < 12; dy++) rgb.fill(30 + (state % 40), ((y + dy) * w + x) * 3, ((y + dy) * w + x) * 3 + 3);
    }
  }
  return encodeRgbPng(w, h, rgb).toString("base64");
}

const stack = await startStack({ modelDelayMs: 0 });
const slackOrigin = stack.fakes.slack.replace(/\/api$/, "");
const control = async <T>(path: string, body?: unknown): Promise<T> =>
  (await (
    await fetch(`${slackOrigin}${path}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) })
  ).json()) as T;
// One person asks every question of a conversation: the per-person reply limit is not what is measured.
const at = { ...stack, publicBaseUrl: stack.gate.url, port: stack.workerPort };
const parley = await startParleyOn(at, traffic.discordSigner(), "benchfiles", { RATE_LIMIT_REPLIES: "1000" }, "log");
let seq = 0;
const nextTs = () => `${Math.floor(Date.now() / 1000)}.${String(++seq).padStart(6, "0")}`;

async function mention(channel: string, text: string, file?: unknown): Promise<string> {
  const ts = nextTs();
  const event = JSON.parse(
    traffic.slackEvent(TEAM, channel, "UALICE", `<@${traffic.SLACK_BOT_USER_ID}> ${text}`, ts),
  ) as { event: Record<string, unknown> };
  if (file) Object.assign(event.event, { subtype: "file_share", files: [file] });
  const res = await fetch(traffic.slackRequest(parley.url, JSON.stringify(event)));
  if (res.status !== 200) throw new Error(`the webhook answered ${res.status}`);
  return `${channel}:${ts}`;
}

const answers = async (channel: string) =>
  ((await (await fetch(`${slackOrigin}/__calls?channel=${channel}`)).json()) as unknown[]).length;
async function untilAnswered(channel: string, n: number): Promise<void> {
  for (const until = Date.now() + 60_000; (await answers(channel)) < n; ) {
    if (Date.now() > until)
      throw new Error(
        `no answer in ${channel}: ${JSON.stringify(events.filter((e) => JSON.stringify(e).includes(channel)).slice(-8))}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

try {
  const pictures = await Promise.all(
    [1, 2, 3, 4, 5].map((n) =>
      control<Record<string, unknown>>("/__files", {
        name: `screenshot-${n}.png`,
        type: "image/png",
        base64: screenshot(n),
      }),
    ),
  );
  const withPicture = Array.from({ length: args.mentions }, (_, i) => i % 10 === 0);
  const pictured = withPicture.filter(Boolean).length;
  const channels = withPicture.map((_, i) => `CFILES${i}`);
  // The webhooks, jobs held: what each kind of message costs the webhook.
  const served = () => control<{ bytesServed: number }>("/__files/stats");
  const before = await served();
  const cost = async (picture: boolean) =>
    costOf(stack, async () => {
      for (const [i, channel] of channels.entries())
        if (withPicture[i] === picture)
          await mention(channel, `what is this? ${i}`, picture ? pictures[i % pictures.length] : undefined);
    });
  const text = await cost(false);
  const image = await cost(true);
  const fetchedByWebhooks = (await served()).bytesServed - before.bytesServed;
  stack.gate.open();
  for (const channel of channels) await untilAnswered(channel, 1);
  await jobsSettled(stack.gate, Date.now() + 60_000);
  const reads = events.filter((e) => e.event === "files_read" && Number(e.images) > 0);
  const perPicture = reads.map((e) => Number(e.ms) / Number(e.images));
  const bytesPerAnswer = reads.reduce((sum, e) => sum + Number(e.bytes), 0) / Math.max(1, reads.length);

  // Two conversations of `history` mentions: a screenshot on the last only, or on every one.
  const last: Record<string, number> = {};
  for (const [name, everyOne] of [
    ["one", false],
    ["every", true],
  ] as const) {
    let trigger = "";
    for (let n = 1; n <= args.history; n++) {
      trigger = await mention(
        `CCONV${name.toUpperCase()}`,
        `and this one? ${n}`,
        everyOne || n === args.history ? pictures[n % pictures.length] : undefined,
      );
      await untilAnswered(`CCONV${name.toUpperCase()}`, n);
    }
    await jobsSettled(stack.gate, Date.now() + 30_000);
    last[name] = Number(events.find((e) => e.event === "reply_posted" && e.trigger === trigger)?.prompt_tokens);
  }
  const figures = {
    webhookRedisCommandsPerMessage: {
      text: round(text.commands / (args.mentions - pictured)),
      picture: round(image.commands / pictured),
    },
    bytesFetchedByWebhooks: fetchedByWebhooks,
    jobMsPerPicture: {
      p50: round(percentile(perPicture, 50)),
      p95: round(percentile(perPicture, 95)),
      samples: perPicture.length,
    },
    bytesFetchedPerAnswerWithPicture: Math.round(bytesPerAnswer),
    promptTokens: {
      oneScreenshot: last.one,
      everyMessageAScreenshot: last.every,
      ratio: round((last.every ?? 0) / (last.one ?? 1)),
      messages: args.history,
    },
  };
  print(
    `webhook Redis commands per message: ${figures.webhookRedisCommandsPerMessage.text} without a picture, ${figures.webhookRedisCommandsPerMessage.picture} with one`,
  );
  print(`bytes fetched while the webhooks ran: ${figures.bytesFetchedByWebhooks}`);
  print(
    `job time reading pictures, per picture: p50 ${figures.jobMsPerPicture.p50} ms, p95 ${figures.jobMsPerPicture.p95} ms (${perPicture.length} answers)`,
  );
  print(`bytes fetched per answer with a picture: ${figures.bytesFetchedPerAnswerWithPicture}`);
  print(
    `prompt tokens of the last of ${args.history} answers: ${last.one} with one screenshot, ${last.every} with a screenshot on every message (${figures.promptTokens.ratio}×)`,
  );
  if (args.json) print(JSON.stringify(figures));
} finally {
  await parley.stop();
  await stack.stop();
}
