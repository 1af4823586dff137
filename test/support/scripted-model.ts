/**
 * @module
 * A scripted model for job-flow tests: the Llm the job flows call (lib/llm/client.ts), with no HTTP behind it. Each
 * call takes the next step of its script, in order: an answer (null: the model stayed quiet), a judge's verdict,
 * tool calls, or a failure (a 500, a timeout). Every call is kept with the prompt it got. It is as strict as the
 * Llm's contract: a call the script did not expect, a step of the wrong kind, or a quiet model where an answer is
 * required (the real client nudges it, then falls back: never null) throws ScriptError, which a test must not
 * mistake for a model failure (test/support/job-flow.ts rethrows it). Each call reports `tokens` (100) of usage.
 */
import type { Prompt } from "../../lib/context/prompt.ts";
import type { Llm, ReplyOptions, ToolPass } from "../../lib/llm/client.ts";
import type { WholePass } from "../../lib/llm/generate.ts";
import type { StreamedPass } from "../../lib/llm/stream-reply.ts";

/** What the model does on one call. */
export type ModelStep = (
  | { answer: string | null }
  | { judge: boolean }
  | { tools: { name: string; arguments: string }[] }
  | { fails: string }
  /** A streamed answer that shows its first words, then breaks off (a stream cut short). */
  | { cutShort: string }
) & { tokens?: number };

type AnswerCall = "generate" | "generatePass";

/** One call the job made: which, with what prompt, whether it had to answer, and the tool pass if any. */
export interface ModelCall {
  call: AnswerCall | "judge";
  prompt: Prompt;
  required?: boolean;
  pass?: ToolPass;
}

/** The script or the Llm's contract was broken: a test error, not a model failure. */
class ScriptError extends Error {}

const DEFAULT_TOKENS = 100;

export class ScriptedModel implements Llm {
  readonly calls: ModelCall[] = [];
  readonly #steps: ModelStep[] = [];
  #toolCalls = 0;

  /** Adds steps to the end of the script. */
  script(...steps: ModelStep[]): this {
    this.#steps.push(...steps);
    return this;
  }

  /** Steps the job never asked for. */
  get unused(): readonly ModelStep[] {
    return this.#steps;
  }

  /** Each prompt's messages as one text, oldest call first: what the model read. */
  promptTexts(): string[] {
    return this.calls.map((c) => c.prompt.messages.map((m) => m.content).join("\n"));
  }

  async generate(prompt: Prompt, opts: ReplyOptions): Promise<string | null> {
    const step = this.#next({ call: "generate", prompt, required: opts.required }, opts.onUsage);
    if ("answer" in step) return this.#answer(step.answer, opts.required);
    throw new ScriptError(`generate got a step that is no answer: ${JSON.stringify(step)}`);
  }

  async streamReply(prompt: Prompt, opts: ReplyOptions): Promise<AsyncIterable<string> | null> {
    const cut = this.#steps[0];
    if (!cut || !("cutShort" in cut)) return once(await this.generate(prompt, opts));
    this.#next({ call: "generate", prompt, required: opts.required }, opts.onUsage);
    return (async function* () {
      yield cut.cutShort;
      throw new Error("the model's stream was cut short");
    })();
  }

  async generatePass(prompt: Prompt, pass: ToolPass, opts: ReplyOptions): Promise<WholePass> {
    const step = this.#next({ call: "generatePass", prompt, required: opts.required, pass }, opts.onUsage);
    if ("answer" in step) return { kind: "answer", text: this.#answer(step.answer, opts.required) };
    if (!("tools" in step)) throw new ScriptError(`a tool pass got a step that is no answer: ${JSON.stringify(step)}`);
    const offered = new Set(pass.tools.map((t) => t.name));
    const unknown = step.tools.find((t) => !offered.has(t.name));
    if (unknown) throw new ScriptError(`the model can only call tools it was offered, not ${unknown.name}`);
    return { kind: "tools", calls: step.tools.map((t) => ({ id: `call_${++this.#toolCalls}`, ...t })) };
  }

  async streamPass(prompt: Prompt, pass: ToolPass, opts: ReplyOptions): Promise<StreamedPass> {
    const whole = await this.generatePass(prompt, pass, opts);
    return whole.kind === "tools" ? whole : { kind: "answer", texts: once(whole.text) };
  }

  async judge(prompt: Prompt, onUsage?: (tokens: number) => void): Promise<boolean> {
    const step = this.#next({ call: "judge", prompt }, onUsage);
    if ("judge" in step) return step.judge;
    throw new ScriptError(`the judge got a step that is no verdict: ${JSON.stringify(step)}`);
  }

  async summarize(): Promise<never> {
    throw new ScriptError("summaries are not scripted (SUMMARY_ENABLED is off in flow tests)");
  }

  async extractFacts(): Promise<never> {
    throw new ScriptError("facts are not scripted (MEMORY_ENABLED is off in flow tests)");
  }

  async catchUp(): Promise<never> {
    throw new ScriptError("catch-ups are not scripted");
  }

  #next(call: ModelCall, onUsage: ((tokens: number) => void) | undefined): Exclude<ModelStep, { fails: string }> {
    this.calls.push(call);
    const step = this.#steps.shift();
    if (!step) throw new ScriptError(`the model was called (${call.call}) with nothing left in its script`);
    onUsage?.(step.tokens ?? DEFAULT_TOKENS);
    if ("fails" in step) throw new Error(step.fails);
    return step;
  }

  #answer(text: string | null, required: boolean): string | null {
    if (text === null && required) throw new ScriptError("the Llm never leaves a required answer quiet (it nudges)");
    return text;
  }
}

function once(text: string | null): AsyncIterable<string> | null {
  return text === null
    ? null
    : (async function* () {
        yield text;
      })();
}
