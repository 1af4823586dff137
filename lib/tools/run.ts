/**
 * @module
 * One tool round: the calls the model asked for, run side by side, each within TOOL_TIMEOUT_MS, each result cut to
 * MAX_RESULT_CHARS and handed back as a JSON line for the data block's markers (lib/llm/tool-messages.ts). A call
 * of a tool that was not offered, with arguments that are not JSON, that fails or times out gets an `error` line:
 * the model hears it and answers with what it has. A tool that needs a person's approval is never run in a round
 * (lib/jobs/tool-loop.ts asks the person instead): only once approved (`callTool`). Log
 * lines carry each call's tool, outcome and time, never its arguments or result.
 */
import { dataLine } from "../context/data-block.ts";
import { withinMs } from "../deadline.ts";
import { callsMessage, resultMessage, type PassMessage, type ToolCall } from "../llm/tool-messages.ts";
import type { LogFields } from "../log.ts";
import { ToolRefusal, type Tool, type ToolContext } from "./tool.ts";

/** About 2,000 tokens: a round's results must leave the prompt room for the answer. */
const MAX_RESULT_CHARS = 8_000;

type CallOutcome = "ok" | "refused" | "failed" | "timeout" | "not_offered" | "needs_approval";

/** What every call of a round shares: the answer's place and asker, and the first call's index in the answer. */
export type RoundContext = Omit<ToolContext, "idempotencyKey" | "signal"> & {
  triggerId: string;
  firstIndex: number;
  logFields: LogFields;
  /** What a confirm tool's call is told when the person could not be asked about it (lib/jobs/tool-loop.ts). */
  confirmRefusal?: string;
};

/** The round's messages for the next pass: the assistant message with the calls, then one result per call. */
export async function runToolRound(
  offered: readonly Tool[],
  calls: readonly ToolCall[],
  round: RoundContext,
): Promise<PassMessage[]> {
  const results = await Promise.all(calls.map((call, i) => runCall(offered, call, round, round.firstIndex + i)));
  return [callsMessage(calls), ...calls.map((call, i) => resultMessage(call, results[i]!))];
}

async function runCall(offered: readonly Tool[], call: ToolCall, round: RoundContext, index: number): Promise<string> {
  const tool = offered.find((t) => t.name === call.name);
  if (!tool) {
    round.services.log.info("tool_called", {
      ...round.logFields,
      tool: "(not offered)",
      outcome: "not_offered",
      ms: 0,
    });
    return dataLine({ tool: call.name, error: "no such tool here" });
  }
  // A round never runs one: the loop asks the person instead (lib/jobs/tool-loop.ts), or says why it could not.
  if (tool.confirm) {
    round.services.log.info("tool_called", { ...round.logFields, tool: call.name, outcome: "needs_approval", ms: 0 });
    const error = round.confirmRefusal ?? "this action needs a person's approval and was not run";
    return dataLine({ tool: call.name, error });
  }
  const done = await callTool(
    tool,
    call.arguments,
    { ...round, idempotencyKey: `${round.triggerId}:${index}` },
    round.logFields,
  );
  return dataLine("result" in done ? { tool: call.name, result: done.result } : { tool: call.name, error: done.error });
}

/** One call's end: its result (cut to MAX_RESULT_CHARS), or what the model or person is told instead. */
export type CallDone = { outcome: "ok"; result: string } | { outcome: Exclude<CallOutcome, "ok">; error: string };

/**
 * Runs one call of `tool` with the model's arguments (JSON text), within TOOL_TIMEOUT_MS; logged as `tool_called` with
 * its outcome and time, never its arguments or result. A round's calls, and an approved call
 * (lib/approvals/continuation.ts).
 */
export async function callTool(
  tool: Tool,
  argumentsText: string,
  ctx: Omit<ToolContext, "signal">,
  logFields: LogFields,
): Promise<CallDone> {
  const { services } = ctx;
  const started = services.now();
  let done: CallDone;
  try {
    const text = await runWithin(tool, parseArguments(argumentsText), ctx);
    done = {
      outcome: "ok",
      result: text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)} [cut]` : text,
    };
  } catch (err) {
    const outcome = outcomeOf(err);
    done = {
      outcome,
      error:
        err instanceof ToolRefusal ? err.message : outcome === "timeout" ? "the tool took too long" : "the tool failed",
    };
  }
  services.log.info("tool_called", {
    ...logFields,
    tool: tool.name,
    outcome: done.outcome,
    ms: services.now() - started,
  });
  return done;
}

class ToolTimeout extends Error {}

async function runWithin(tool: Tool, args: unknown, ctx: Omit<ToolContext, "signal">): Promise<string> {
  const ms = ctx.services.settings.TOOL_TIMEOUT_MS;
  const abort = new AbortController();
  try {
    // A tool that ignores its signal still ends here on time.
    return await withinMs(tool.run(args, { ...ctx, signal: abort.signal }), ms, () => {
      abort.abort();
      throw new ToolTimeout();
    });
  } finally {
    abort.abort();
  }
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text || "{}");
  } catch {
    throw new ToolRefusal("the arguments are not JSON");
  }
}

function outcomeOf(err: unknown): "refused" | "failed" | "timeout" {
  if (err instanceof ToolTimeout) return "timeout";
  if (err instanceof ToolRefusal) return "refused";
  // A fetch aborted by the deadline reports itself as an AbortError.
  return err instanceof Error && err.name === "AbortError" ? "timeout" : "failed";
}
