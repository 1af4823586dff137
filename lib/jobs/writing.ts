/**
 * @module
 * What writing one answer works with, put together once by the answer (./answer.ts) and handed whole down the write
 * path (./write.ts, ./tool-loop.ts): the job's scope, the prompt, the working sign, where each model call's tokens
 * are counted (the metered call it runs in: ./metered.ts), and what the tools did.
 */
import type { Prompt } from "../context/prompt.ts";
import type { ToolRoundTrace } from "../conversation/answer-trace.ts";
import type { PendingCall } from "../conversation/draft.ts";
import type { WorkingSign } from "../platforms/answer-stream.ts";
import type { OnUsage } from "./metered.ts";
import type { AnswerScope } from "./scope.ts";

/** What an answer's tools did: the rounds taken (for its trace), and the call it asks a person to approve, if any. */
interface ToolUse {
  rounds: ToolRoundTrace[];
  approval?: PendingCall;
}

export interface Writing {
  scope: AnswerScope;
  prompt: Prompt;
  /** Comes down once the answer shows. */
  sign: WorkingSign;
  /** Hears the tokens of each model call (the daily budgets). */
  onUsage: OnUsage;
  /** Filled in as the tools run. */
  toolUse: ToolUse;
  /** Set when a person stopped the answer as it was written (./write.ts): it holds what was written then. */
  stopped?: true;
}
