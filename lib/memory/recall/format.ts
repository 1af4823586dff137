/**
 * @module
 * Recalled passages as lines of the prompt's data block (lib/context/data-block.ts): each one `{date, earlier}`,
 * the quote inside its JSON string, so a recalled text can never pose as an instruction or as another line; the
 * system message declares the whole block untrusted data. Recall gets a fixed share of the prompt budget.
 */
import { dataLine, type EarlierRecord } from "../../context/data-block.ts";
import { countTokens } from "../../context/tokens.ts";
import type { PassageMetadata } from "./passage.ts";

/** Recall gets this share of the prompt budget, and never more than RECALL_MAX_TOKENS. */
const RECALL_SHARE = 0.1;
const RECALL_MAX_TOKENS = 600;

export interface RecalledPassage {
  id: string;
  score: number;
  text: string;
  metadata: PassageMetadata;
}

export function recallBudgetTokens(promptBudgetTokens: number): number {
  return Math.min(RECALL_MAX_TOKENS, Math.floor(promptBudgetTokens * RECALL_SHARE));
}

/** `2026-11-14 15:04`: minutes are enough to tell "last Tuesday afternoon". */
function utcMinute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

export function earlierRecord(passage: RecalledPassage): EarlierRecord {
  return { date: utcMinute(passage.metadata.start), earlier: passage.text };
}

/** The passage's line in the data block, as the prompt will carry it. */
export function recallEntry(passage: RecalledPassage): string {
  return dataLine(earlierRecord(passage));
}

/** What the passages add to the prompt: each its line and the line break before it. */
export function recallTokens(passages: RecalledPassage[]): number {
  return passages.reduce((sum, p) => sum + countTokens(recallEntry(p)) + 1, 0);
}
