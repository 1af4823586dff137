/**
 * @module
 * The answer with tools (docs/tools.md): the model is offered the tools the tenant's answers may use (TOOLS); when
 * it asks for some, they run (lib/tools/run.ts), their results go back to it as data, and it is asked again, on
 * FOLLOWUP_MODEL, at most MAX_TOOL_ROUNDS rounds, after which the last pass must answer in words. A pass that
 * answers (or stays quiet with [SKIP]) ends the loop as a plain answer would. The working sign stays up through the
 * rounds (nothing shows before the answer's first words); every pass's tokens count towards the daily budgets
 * (the writing's `onUsage`, ./writing.ts). Without tools offered this is the plain model call. A call of a tool
 * that needs a person's approval (`confirm`) is never run here: it ends the loop, and the answer is the question
 * that asks for the approval (lib/approvals/open.ts opens it once the question is out); the round's other calls are
 * not run either. A question shows every argument that would run, whole; one the platform could not show in one
 * message is not asked, and the model is told why.
 */
import { sha256Hex } from "../crypto.ts";
import { placeId } from "../keys.ts";
import type { ReplyOptions, ToolPass } from "../llm/client.ts";
import type { PassMessage, ToolCall, ToolSpec } from "../llm/tool-messages.ts";
import { approvalQuestion, FALLBACK_ANSWER } from "../notices.ts";
import { runToolRound } from "../tools/run.ts";
import type { Tool } from "../tools/tool.ts";
import { placeReader } from "./read-place.ts";
import type { AnswerScope } from "./scope.ts";
import type { Writing } from "./writing.ts";

/**
 * The tools an answer is offered. A tool that needs a person's approval is among them only where the platform can
 * take a person's answer (a reaction, or a YES or NO on SMS: PlatformAdapter `approvals`).
 */
export function offeredTools(scope: AnswerScope): Tool[] {
  const approvable = scope.replier.approvalTarget(scope.job) !== null;
  return scope.rt.tools.forTenant(scope.job.key).filter((tool) => approvable || !tool.confirm);
}

/** The answer written whole (null: the model stayed quiet and need not answer). */
export async function wholeAnswer(w: Writing, tools: readonly Tool[], required: boolean): Promise<string | null> {
  const { prompt, scope } = w;
  const opts: ReplyOptions = { required, onUsage: w.onUsage };
  if (tools.length === 0) return scope.rt.llm.generate(prompt, opts);
  const answer = await toolLoop(w, tools, (pass) => scope.rt.llm.generatePass(prompt, pass, opts));
  if (answer === NO_ANSWER) return fallback(opts);
  return answer.kind === "approval" ? answer.question : answer.text;
}

/**
 * The answer as it is written (null as `wholeAnswer`'s). A text the job wrote itself (an approval's question, the
 * fallback) comes whole, as a string, and is posted, not streamed: shown in a stream before the draft holds it as its
 * text, a question whose attempt then failed was ended by the apology over it (bench:chaos seed 11's `/ask`).
 */
export async function streamedAnswer(
  w: Writing,
  tools: readonly Tool[],
  required: boolean,
): Promise<AsyncIterable<string> | string | null> {
  const { prompt, scope } = w;
  const opts: ReplyOptions = { required, onUsage: w.onUsage };
  if (tools.length === 0) return scope.rt.llm.streamReply(prompt, opts);
  const answer = await toolLoop(w, tools, (pass) => scope.rt.llm.streamPass(prompt, pass, opts));
  if (answer !== NO_ANSWER && answer.kind !== "approval") return answer.texts;
  return answer === NO_ANSWER ? fallback(opts) : answer.question;
}

/** A model that asked for tools on the pass that had to answer (tools offered with `tool_choice: "none"`). */
const NO_ANSWER = Symbol("no answer");

function fallback(opts: ReplyOptions): string | null {
  return opts.required ? FALLBACK_ANSWER : null;
}

type Pass<A> = (pass: ToolPass) => Promise<{ kind: "tools"; calls: ToolCall[] } | A>;

/** The model asked for a confirm tool: the answer is `question`. */
type AsksApproval = { kind: "approval"; question: string };

async function toolLoop<A extends { kind: "answer" }>(
  w: Writing,
  tools: readonly Tool[],
  pass: Pass<A>,
): Promise<A | AsksApproval | typeof NO_ANSWER> {
  const { scope, toolUse: used } = w;
  const { rt, job, attempt, where } = scope;
  const specs: ToolSpec[] = tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  const rounds: PassMessage[] = [];
  // A trigger's id is unique only in its place (a Telegram message id counts up per chat): the key names both.
  const triggerId = `${placeId(job.key)}|${job.trigger.id}`;
  let called = 0;
  for (let round = 0; ; round++) {
    const answerNow = round >= rt.settings.MAX_TOOL_ROUNDS;
    const result = await pass({ tools: specs, rounds, answerNow });
    if (result.kind !== "tools") return result;
    if (answerNow) {
      rt.log.warn("tool_rounds_exceeded", { ...where, rounds: round });
      return NO_ANSWER;
    }
    const confirmAt = result.calls.findIndex((call) => tools.some((t) => t.confirm && t.name === call.name));
    const approval =
      confirmAt >= 0
        ? await askApproval(w, result.calls[confirmAt]!, `${triggerId}:${called + confirmAt}`, round)
        : null;
    if (approval && "question" in approval) return { kind: "approval", question: approval.question };
    const started = rt.now();
    const [asked, ...results] = await runToolRound(tools, result.calls, {
      services: rt,
      place: job.key,
      conversationId: job.conversationId,
      askerId: job.trigger.authorId,
      personalIds: job.logIds === "pseudonym",
      visibility: scope.visibility,
      readPlace: placeReader(scope),
      triggerId,
      firstIndex: called,
      logFields: { ...where },
      // A confirm call whose question could not show its arguments whole: the model is told why it was not asked.
      ...(approval ? { confirmRefusal: approval.refused } : {}),
    });
    rounds.push(asked!, ...results);
    called += result.calls.length;
    const ms = rt.now() - started;
    // The admin view's trace (and the simulator's prompt panel) shows each call with its result as the model read it.
    used.rounds.push({
      ms,
      calls: result.calls.map((c, i) => ({ tool: c.name, arguments: c.arguments, result: results[i]?.content ?? "" })),
    });
    rt.log.info("tool_round", { ...where, round: round + 1, calls: result.calls.length, ms });
    // Tool rounds may outlast a third of the claim's life: renewed as the loop goes (no command before then).
    await attempt.keepClaim();
  }
}

/** What the model hears of a confirm call that was not asked about, by why. */
const NOT_ASKED = {
  not_json: "not asked: the arguments are not JSON",
  too_long:
    "not asked: its arguments are too long to be shown for approval here; ask for it with shorter arguments, or " +
    "answer without it",
} as const;

/**
 * The question that asks to approve `call`, the call kept for the answer's draft with the hash of the arguments
 * shown; or, logged `tool_approval_refused`, why it is not asked (the model is told): arguments that are not JSON, or
 * a question the platform could not show whole in one message. Every argument that would run is in the question,
 * exactly as it will run.
 */
async function askApproval(
  w: Writing,
  call: ToolCall,
  key: string,
  round: number,
): Promise<{ question: string } | { refused: string }> {
  const { rt, job, where, replier } = w.scope;
  const refused = (reason: keyof typeof NOT_ASKED) => {
    rt.log.warn("tool_approval_refused", { ...where, tool: call.name, round: round + 1, reason });
    return { refused: NOT_ASKED[reason] };
  };
  const shown = shownArguments(call.arguments);
  if (shown === null) return refused("not_json");
  const way = replier.approvalWay(job) ?? "reaction";
  const question = approvalQuestion(call.name, shown, rt.settings.APPROVAL_TTL_MINUTES, way);
  if (!replier.approvalShown(job, question)) return refused("too_long");
  w.toolUse.approval = { tool: call.name, arguments: shown, key, shown: await sha256Hex(shown) };
  rt.log.info("tool_approval_asked", { ...where, tool: call.name, round: round + 1 });
  return { question };
}

/**
 * The arguments as the question shows them and as they run once approved: compact JSON, whole, a backtick written
 * `\u0060` (the same JSON) so that no value can close the question's code block; null when they are not JSON.
 */
function shownArguments(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text || "{}")).replaceAll("`", "\\u0060");
  } catch {
    return null;
  }
}
