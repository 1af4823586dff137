/**
 * @module
 * The answer with tools (docs/tools.md): the model is offered the tools the tenant's answers may use (TOOLS); when
 * it asks for some, they run (lib/tools/run.ts), their results go back to it as data, and it is asked again, on
 * FOLLOWUP_MODEL, at most MAX_TOOL_ROUNDS rounds, after which the last pass must answer in words. A pass that
 * answers (or stays quiet with [SKIP]) ends the loop as a plain answer would. The working sign stays up through the
 * rounds (nothing shows before the answer's first words); every pass's tokens count towards the daily budgets
 * (`onUsage`). Without tools offered this is the plain model call.
 */
import type { ToolRoundTrace } from "../conversation/answer-trace.ts";
import { placeId } from "../keys.ts";
import type { Prompt } from "../context/prompt.ts";
import type { ReplyOptions, ToolPass } from "../llm/client.ts";
import type { PassMessage, ToolCall, ToolSpec } from "../llm/tool-messages.ts";
import { FALLBACK_ANSWER } from "../notices.ts";
import { runToolRound } from "../tools/run.ts";
import type { Tool } from "../tools/tool.ts";
import { placeReader } from "./read-place.ts";
import type { AnswerScope } from "./scope.ts";

/** The tools an answer is offered. A tool that needs a person's approval is not among them (docs/tools.md). */
export function offeredTools(scope: AnswerScope): Tool[] {
  return scope.rt.tools.forTenant(scope.job.key).filter((tool) => !tool.confirm);
}

/** The answer written whole (null: the model stayed quiet and need not answer); `trace` gets the rounds taken. */
export async function wholeAnswer(scope: AnswerScope, prompt: Prompt, tools: readonly Tool[], opts: ReplyOptions, trace: ToolRoundTrace[]): Promise<string | null> {
  if (tools.length === 0) return scope.rt.llm.generate(prompt, opts);
  const answer = await toolLoop(scope, tools, trace, (pass) => scope.rt.llm.generatePass(prompt, pass, opts));
  return answer === NO_ANSWER ? fallback(opts) : answer.text;
}

/** The answer as it is written (null as `wholeAnswer`'s). */
export async function streamedAnswer(scope: AnswerScope, prompt: Prompt, tools: readonly Tool[], opts: ReplyOptions, trace: ToolRoundTrace[]): Promise<AsyncIterable<string> | null> {
  if (tools.length === 0) return scope.rt.llm.streamReply(prompt, opts);
  const answer = await toolLoop(scope, tools, trace, (pass) => scope.rt.llm.streamPass(prompt, pass, opts));
  if (answer !== NO_ANSWER) return answer.texts;
  const text = fallback(opts);
  return text === null ? null : (async function* () { yield text; })();
}

/** A model that asked for tools on the pass that had to answer (tools offered with `tool_choice: "none"`). */
const NO_ANSWER = Symbol("no answer");

function fallback(opts: ReplyOptions): string | null {
  return opts.required ? FALLBACK_ANSWER : null;
}

type Pass<A> = (pass: ToolPass) => Promise<{ kind: "tools"; calls: ToolCall[] } | A>;

async function toolLoop<A extends { kind: "answer" }>(scope: AnswerScope, tools: readonly Tool[], trace: ToolRoundTrace[], pass: Pass<A>): Promise<A | typeof NO_ANSWER> {
  const { rt, job, attempt, where } = scope;
  const specs: ToolSpec[] = tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  const rounds: PassMessage[] = [];
  let called = 0;
  for (let round = 0; ; round++) {
    const answerNow = round >= rt.settings.MAX_TOOL_ROUNDS;
    const result = await pass({ tools: specs, rounds, answerNow });
    if (result.kind !== "tools") return result;
    if (answerNow) {
      rt.log.warn("tool_rounds_exceeded", { ...where, rounds: round });
      return NO_ANSWER;
    }
    const started = rt.now();
    const [asked, ...results] = await runToolRound(tools, result.calls, {
      services: rt,
      place: job.key,
      conversationId: job.conversationId,
      askerId: job.trigger.authorId,
      visibility: scope.visibility,
      readPlace: placeReader(scope),
      // A trigger's id is unique only in its place (a Telegram message id counts up per chat): the key names both.
      triggerId: `${placeId(job.key)}|${job.trigger.id}`,
      firstIndex: called,
      logFields: { ...where },
    });
    rounds.push(asked!, ...results);
    called += result.calls.length;
    const ms = rt.now() - started;
    // The admin view's trace (and the simulator's prompt panel) shows each call with its result as the model read it.
    trace.push({ ms, calls: result.calls.map((c, i) => ({ tool: c.name, arguments: c.arguments, result: results[i]?.content ?? "" })) });
    rt.log.info("tool_round", { ...where, round: round + 1, calls: result.calls.length, ms });
    // Tool rounds may outlast a third of the claim's life: renewed as the loop goes (no command before then).
    await attempt.keepClaim();
  }
}
