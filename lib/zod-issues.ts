/**
 * @module
 * zod's validation issues in words for an error answer or a log line: the path of each field that failed and zod's
 * own wording, never the values, so a payload's message text or tokens never reach a log.
 */
import type * as z from "./zod.ts";

const ROOT = "(root)";

/** `path: message` for each issue, joined by "; "; `prefix` names where the validated value sits (e.g. "event."). */
export function describeIssues(error: z.core.$ZodError, prefix = ""): string {
  return error.issues.map((i) => `${prefix}${i.path.join(".") || ROOT}: ${i.message}`).join("; ");
}

/** Only the paths of the fields that failed. */
export function issuePaths(error: z.core.$ZodError): string[] {
  return error.issues.map((i) => i.path.join(".") || ROOT);
}
