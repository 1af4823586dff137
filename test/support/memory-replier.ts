/**
 * @module
 * An in-memory Replier (lib/platforms/replier.ts) for job-flow tests: the platform as the job flows see it, with
 * nothing behind it but a record of what a person would see. Each answer's parts go through the loop every
 * platform's `send` runs (lib/platforms/parts.ts), tagged with the trigger and the part's index as Slack's metadata
 * and Discord's nonce tag them, so that a part whose call never came back is found, not posted twice. The working
 * sign is a reaction put on the trigger and taken off. A call can be told to fail (`fail`): refused, or landed with
 * its answer lost. It may stream as Telegram does (`streams`); it reads no history and fetches no parent or file (the
 * worker suites cover those, and every platform's own streaming).
 */
import type { ApprovalWay } from "../../lib/approvals/capability.ts";
import type { Visibility } from "../../lib/message.ts";
import { postParts } from "../../lib/platforms/parts.ts";
import type { AnswerStream } from "../../lib/platforms/answer-stream.ts";
import type { JobStreaming, Replier } from "../../lib/platforms/replier.ts";
import type { JobPayload } from "../../lib/queue/job.ts";
import { splitText } from "../../lib/text/split.ts";

/** A message the bot posted: where (the channel of the job's place), its text, and the answer and part it carries. */
export interface PostedMessage {
  id: string;
  channel: string;
  text: string;
  answerId: string;
  index: number;
}

/** What a person saw happen, in order: a message posted or edited, the working sign put on a message or taken off. */
export type SeenEvent =
  | { kind: "posted"; message: PostedMessage }
  | { kind: "edited"; id: string; text: string }
  | { kind: "sign_up" | "sign_down"; triggerId: string };

/** How a failing call fails: refused (nothing happened), or `lost` (it happened; its answer never came back). */
export interface FailRule {
  times?: number;
  lost?: boolean;
  error?: Error;
}

export interface MemoryReplierOptions {
  /** Who can read the place when the message did not say (default "public"). */
  visibility?: Visibility;
  /** How a person answers a confirm tool's question there; absent: nobody can approve (no confirm tool is offered). */
  approvals?: ApprovalWay;
  /** The longest part the platform takes (default 4,000 characters). */
  maxChars?: number;
  /** Like Telegram: a part cannot be looked for, and one posted again shows twice (lib/platforms/parts.ts). */
  unfindable?: boolean;
  /**
   * Streams as Telegram does (lib/platforms/telegram/stream.ts), neither message to be looked for: `draft`, a preview
   * that is no message until `finish` sends the one that stays (a private chat); `message`, the first words posted,
   * then edited (a group).
   */
  streams?: "draft" | "message";
}

export class MemoryReplier implements Replier {
  readonly events: SeenEvent[] = [];
  readonly #options: MemoryReplierOptions;
  #failing: Required<Pick<FailRule, "times" | "lost">> & { error: Error } = {
    times: 0,
    lost: false,
    error: new Error(),
  };
  #ids = 0;

  constructor(options: MemoryReplierOptions = {}) {
    this.#options = options;
  }

  /** The messages posted, oldest first. */
  get posted(): PostedMessage[] {
    return this.events.flatMap((e) => (e.kind === "posted" ? [e.message] : []));
  }

  /** The texts posted, oldest first: what the people in the place read. */
  texts(): string[] {
    return this.posted.map((m) => m.text);
  }

  /** The next `times` (1) part posts fail: refused with `error` (a 500's), or, `lost`, landed with the answer lost. */
  fail(rule: FailRule = {}): void {
    this.#failing = {
      times: rule.times ?? 1,
      lost: rule.lost ?? false,
      error: rule.error ?? new Error("the platform answered 500"),
    };
  }

  async send(job: JobPayload, text: string, progress: Parameters<Replier["send"]>[2]): Promise<string[]> {
    const parts = splitText(text, this.#options.maxChars ?? 4_000);
    if (parts.length === 0) throw new Error("the platform refuses an empty message");
    const channel = job.key.channel;
    const answerId = progress.answerId;
    return postParts(parts, progress, {
      post: async (part, index) => {
        const failing = this.#failing.times > 0 ? this.#failing : null;
        if (failing) failing.times -= 1;
        if (failing && !failing.lost) throw failing.error;
        const message = { id: `M${++this.#ids}`, channel, text: part, answerId, index };
        this.events.push({ kind: "posted", message });
        if (failing) throw failing.error;
        return message.id;
      },
      // Parts carry their answer and index (as Slack's message metadata does): one that landed is found.
      ...(this.#options.unfindable
        ? { unfindable: true }
        : {
            find: async (_part: string, index: number) =>
              this.posted.find((m) => m.channel === channel && m.answerId === answerId && m.index === index)?.id ??
              null,
          }),
    });
  }

  async placeVisibility(): Promise<Visibility> {
    return this.#options.visibility ?? "public";
  }

  async fetchParent(): Promise<undefined> {
    return undefined;
  }

  async readHistory(): Promise<undefined> {
    return undefined;
  }

  rescueUnder(): null {
    return null;
  }

  messageLink(): undefined {
    return undefined;
  }

  budgetTenant(job: JobPayload): Pick<JobPayload["key"], "platform" | "tenant"> {
    return { platform: job.key.platform, tenant: job.key.tenant };
  }

  streaming(job: JobPayload): JobStreaming | null {
    const streams = this.#options.streams;
    if (!streams) return null;
    const post = (text: string) => {
      const message = { id: `M${++this.#ids}`, channel: job.key.channel, text, answerId: job.trigger.id, index: 0 };
      this.events.push({ kind: "posted", message });
      return message.id;
    };
    const stream = (state: AnswerStream["state"]): AnswerStream => ({
      state,
      unfindable: true,
      show: async (text) => {
        if (state.mode === "edit") this.#edit(state.id, text);
        state.shown = text;
      },
      finish: async (text) => {
        if (state.mode === "native") Object.assign(state, { id: post(text), mode: "edit" });
        else this.#edit(state.id, text);
        Object.assign(state, { shown: text, open: false });
      },
      close: async () => {
        state.open = false;
      },
    });
    return {
      maxChars: this.#options.maxChars ?? 4_000,
      intervalMs: 0,
      shows: (text) => text.trim().length > 0,
      open: async (text) =>
        stream(
          streams === "draft"
            ? { id: "draft", mode: "native", shown: text, open: true }
            : { id: post(text), mode: "edit", shown: text, open: false },
        ),
      resume: (state) => stream({ ...state }),
    };
  }

  #edit(id: string, text: string): void {
    const message = this.posted.find((m) => m.id === id);
    if (!message || message.text === text) return;
    message.text = text;
    this.events.push({ kind: "edited", id, text });
  }

  async fetchFile(): Promise<null> {
    return null;
  }

  async working(job: JobPayload): Promise<{ stop(): Promise<void> }> {
    const triggerId = job.trigger.id;
    this.events.push({ kind: "sign_up", triggerId });
    let up = true;
    return {
      stop: async () => {
        if (up) this.events.push({ kind: "sign_down", triggerId });
        up = false;
      },
    };
  }

  approvalTarget(job: JobPayload): JobPayload["replyTarget"] | null {
    return this.#options.approvals ? job.replyTarget : null;
  }

  approvalWay(): ApprovalWay | null {
    return this.#options.approvals ?? null;
  }

  /** A question goes out whole where a person can approve and it fits in one part. */
  approvalShown(_job: JobPayload, question: string): boolean {
    return Boolean(this.#options.approvals) && question.length <= (this.#options.maxChars ?? 4_000);
  }

  /** Shows no controls: its questions are answered as the options' way says. */
  async offerControls(): Promise<void> {}

  async settleControls(): Promise<void> {}

  async titleConversation(): Promise<void> {}
  async offerFeedback(): Promise<boolean> {
    return false;
  }
}
