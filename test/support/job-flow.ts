/**
 * @module
 * Job-flow tests in Node (test/flow/): the project's runtime (lib/runtime.ts) with its real stores on the test
 * stack's redis-server (through the Upstash REST bridge, as the Worker reaches it), and only what stands for the
 * outside swapped: the model (./scripted-model.ts), the platform (./memory-replier.ts), a queue that keeps what is
 * published instead of calling QStash, a clock the test moves. A message goes in through the webhook's own flow
 * (lib/ingest.ts: the ingest script, the decider, the publish); the job it published runs as QStash would run it
 * (lib/jobs/reply-job.ts), and after its last retry the failure callback (lib/jobs/failure.ts). No workerd, no
 * QStash stand-in, no platform fake. test/support/README.md says when to write one of these.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { expect, inject, onTestFinished } from "vitest";
import { ingest } from "../../lib/ingest.ts";
import type { JobOutcome } from "../../lib/jobs/answer.ts";
import { notifyFailure } from "../../lib/jobs/failure.ts";
import { runReplyJob } from "../../lib/jobs/reply-job.ts";
import { jobScope } from "../../lib/jobs/scope.ts";
import { logger, type LogFields, type Logger } from "../../lib/log.ts";
import type { Addressing, BotIdentity, ConversationKey } from "../../lib/message.ts";
import type { IngestOptions } from "../../lib/platforms/adapter.ts";
import type { Job } from "../../lib/queue/job.ts";
import type { JobQueue } from "../../lib/queue/publish.ts";
import { createRuntime, type Runtime } from "../../lib/runtime.ts";
import type { Tool } from "../../lib/tools/tool.ts";
import { Toolbox } from "../../lib/tools/toolbox.ts";
import { MemoryReplier, type MemoryReplierOptions } from "./memory-replier.ts";
import { ScriptedModel } from "./scripted-model.ts";
import { MINIMAL_SETTINGS } from "./settings.ts";
import { warpRedisTtls } from "./time-warp.ts";

const BOT: BotIdentity = { userId: "UBOT", name: "Parley", aliases: [] };

/** What the worker suites switch off too (vitest.config.ts), and the judge off unless a test asks for it. */
const FLOW_SETTINGS = {
  ...MINIMAL_SETTINGS,
  MEMORY_ENABLED: "false",
  SUMMARY_ENABLED: "false",
  RECALL_ENABLED: "false",
  STREAMING: "false",
  BACKFILL_MESSAGES: "0",
  USE_LLM_JUDGE: "false",
};

/** A job as the queue got it, with what QStash was asked to do with it. */
interface Published {
  job: Job;
  delaySeconds?: number;
  step?: number;
}

export interface FlowOptions {
  /** Settings on top of FLOW_SETTINGS (the Worker's env, as strings). */
  settings?: Record<string, string>;
  replier?: MemoryReplierOptions;
  /** What the platform's adapter asks of the ingest (a burst delay, answering every message, opt-outs …). */
  ingest?: IngestOptions;
  /** The only tools the answers may use (every tenant's); none unless given. */
  tools?: Tool[];
}

export interface Flow {
  rt: Runtime;
  model: ScriptedModel;
  replier: MemoryReplier;
  /** Every job published, oldest first. */
  published: Published[];
  /** Every log line's event, oldest first. */
  events: { event: string; fields: LogFields }[];
  place: ConversationKey;
  /** Moves the runtime's clock on by `ms`. */
  passes(ms: number): void;
  /** `author`'s message, through the webhook's flow; the reply or judge job it published, or null. */
  say(author: string, text: string, addressing?: Addressing): Promise<Job | null>;
  /** One delivery of the job, as QStash makes it (each retry is another `run`). */
  run(job: Job): Promise<JobOutcome>;
  /** QStash's failure callback after the job's last retry: whether the person was told. */
  failed(job: Job): Promise<boolean>;
  /** Lets the conversation's whole lifetime pass: every key of the flow ages by it (./time-warp.ts). */
  expire(): Promise<void>;
  /** Every key of the flow ages by `ms` (a claim left by a failed release lapses), the clock with them. */
  ages(ms: number): Promise<void>;
}

let flows = 0;

export function jobFlow(options: FlowOptions = {}): Flow {
  const prefix = `flow-${process.pid}-${++flows}-${Date.now()}`;
  const url = inject("redisRestUrl");
  const token = inject("redisRestToken");
  const rt = createRuntime({
    ...FLOW_SETTINGS,
    ...options.settings,
    UPSTASH_REDIS_REST_URL: url,
    UPSTASH_REDIS_REST_TOKEN: token,
    REDIS_KEY_PREFIX: prefix,
  });
  const model = new ScriptedModel();
  // A step the job never asked for is a way out the test did not take.
  onTestFinished(({ task }) => {
    if (task.result?.state === "pass") expect(model.unused, "model steps never asked for").toEqual([]);
  });
  const replier = new MemoryReplier(options.replier);
  const published: Published[] = [];
  const events: Flow["events"] = [];
  let now = Date.UTC(2026, 0, 5, 12, 0, 0);
  rt.now = () => now;
  rt.llm = model;
  rt.queue = recordingQueue(published);
  rt.log = recordingLogger(events);
  if (options.tools) rt.tools = new Toolbox(options.tools, { "*": options.tools.map((t) => t.name) });
  const place: ConversationKey = { platform: "slack", tenant: "TFLOW", channel: `C${flows}` };
  let ids = 0;
  const warp = (ms: number) => warpRedisTtls(new Redis({ url, token }), `${prefix}:`, ms);
  return {
    rt,
    model,
    replier,
    published,
    events,
    place,
    passes(ms) {
      now += ms;
    },
    async say(author, text, addressing = "none") {
      const before = published.length;
      now += 1_000;
      await ingest(
        rt,
        {
          key: place,
          id: `${now / 1000}.${++ids}`,
          author: { id: author, name: author.slice(1).toLowerCase(), isBot: false },
          text,
          ts: now,
          addressing,
          mentions: addressing === "mention" ? [BOT.userId] : [],
          replyTarget: { platform: place.platform, channel: place.channel },
          visibility: "public",
        },
        BOT,
        options.ingest,
      );
      const answering = published.slice(before).find((p) => p.job.kind === "reply" || p.job.kind === "judge");
      return answering?.job ?? null;
    },
    async run(job) {
      return runReplyJob(await jobScope(rt, job, replier));
    },
    async failed(job) {
      return notifyFailure(await jobScope(rt, { ...job, kind: "reply" }, replier));
    },
    async expire() {
      await warp(rt.settings.CONVERSATION_TIMEOUT_SECONDS * 1000);
    },
    async ages(ms) {
      now += ms;
      await warp(ms);
    },
  };
}

/** Keeps what is published; a message id for each, as QStash answers. */
function recordingQueue(published: Published[]): JobQueue {
  return {
    async publish(job, opts = {}) {
      published.push({ job, ...opts });
      return { messageId: `msg_${published.length}`, deduplicated: false };
    },
    async publishTask() {
      throw new Error("flow tests publish no tasks");
    },
  };
}

/** Keeps each line's event and fields, and still writes the line (shown for a failing test only). */
function recordingLogger(events: Flow["events"]): Logger {
  const keep =
    (level: keyof Logger) =>
    (event: string, fields: LogFields = {}) => {
      events.push({ event, fields });
      logger[level](event, fields);
    };
  return { info: keep("info"), warn: keep("warn"), error: keep("error") };
}
