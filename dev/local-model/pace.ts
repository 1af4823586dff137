/**
 * @module
 * How fast and how long the local model answers: a first-token delay, a token rate (as a real model streams), and
 * optionally a length for its own answers (about N tokens). Defaults come from LOCAL_MODEL_FIRST_TOKEN_MS,
 * LOCAL_MODEL_TOKENS_PER_SECOND and LOCAL_MODEL_ANSWER_TOKENS (unset: at once, full speed, the echo answer);
 * `POST /__config` changes them for every request; a script rule, or a marker in the last user message such as
 * `[[local-model tokens=400 tps=40 first_ms=800]]`, for one request. The same pace applies to non-streaming
 * answers, which arrive when the whole answer would have been generated.
 */
import { z } from "zod";

const paceSchema = z.strictObject({
  firstTokenMs: z.number().int().min(0),
  /** null: as fast as the machine goes. */
  tokensPerSecond: z.number().positive().nullable(),
  /** null: the model's usual answer (it echoes what it saw); a number: a generated answer of about that many tokens. */
  answerTokens: z.number().int().positive().max(100_000).nullable(),
});
export type Pace = z.output<typeof paceSchema>;
export const pacePatchSchema = paceSchema.partial();
export type PacePatch = z.output<typeof pacePatchSchema>;

const MARKER = /\[\[local-model((?:\s+[a-z_]+=\d+(?:\.\d+)?)*)\s*\]\]/;

const envNumber = (name: string): number | undefined => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
};

/** The pace from the environment, for `npm run dev` and benches. */
export function paceFromEnv(): Pace {
  const tokensPerSecond = envNumber("LOCAL_MODEL_TOKENS_PER_SECOND");
  const answerTokens = envNumber("LOCAL_MODEL_ANSWER_TOKENS");
  return {
    firstTokenMs: Math.round(envNumber("LOCAL_MODEL_FIRST_TOKEN_MS") ?? 0),
    tokensPerSecond: tokensPerSecond ? tokensPerSecond : null,
    answerTokens: answerTokens ? Math.round(answerTokens) : null,
  };
}

/** The pace a marker in the prompt asks for (`tokens`, `tps`, `first_ms`), merged over `base`. */
export function paceFromMarker(text: string): PacePatch {
  const found = MARKER.exec(text);
  if (!found) return {};
  const fields = Object.fromEntries(
    [...found[1]!.matchAll(/([a-z_]+)=(\d+(?:\.\d+)?)/g)].map(([, k, v]) => [k!, Number(v)]),
  );
  return {
    ...(fields.tokens ? { answerTokens: Math.round(fields.tokens) } : {}),
    ...(fields.tps ? { tokensPerSecond: fields.tps } : {}),
    ...(fields.first_ms !== undefined ? { firstTokenMs: Math.round(fields.first_ms) } : {}),
  };
}

/** Milliseconds until token `index` (0-based) is ready. */
export function tokenReadyAfterMs(pace: Pace, index: number): number {
  return pace.firstTokenMs + (pace.tokensPerSecond ? (index * 1000) / pace.tokensPerSecond : 0);
}
