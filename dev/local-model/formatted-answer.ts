/**
 * @module
 * The local model's answer to a message that asks for a "rollback plan": Markdown as a model formats a chat answer
 * (a heading, bold, a numbered list with a nested bullet, inline code, a code block, a table, a link and an
 * emoji), so that each tab of the simulator shows how its platform draws the same answer (docs/simulator.md).
 */

export const FORMATTED_ANSWER_ASK = /\brollback plan\b/i;

export const FORMATTED_ANSWER = [
  "## Rollback plan",
  "",
  "**Stop the deploy first**, then roll back:",
  "",
  "1. Pause the pipeline",
  "2. Revert `main` to the last good tag",
  "   - check _the_ error rate",
  "3. Tell #ops when it is done ✅",
  "",
  "```bash",
  "git revert --no-edit HEAD && git push",
  "```",
  "",
  "| Step | Owner |",
  "|---|---|",
  "| Revert | Bob |",
  "| Verify | Carol |",
  "",
  "Details in [the runbook](https://example.com/runbook).",
].join("\n");
