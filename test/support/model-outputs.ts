/**
 * @module
 * One set of answers as a model writes them (GitHub-flavoured Markdown, the way GPT-style models format chat
 * answers), rendered by every platform's format in its own table-driven test (test/unit/format-*.test.ts) and
 * checked against what that platform documents. `midStream` entries are snapshots of an answer still being
 * written: a platform shows them through `renderSnapshot` (lib/platforms/answer-format.ts).
 */

export const MODEL_OUTPUTS = {
  heading: "## Rollback plan\n\nStop the deploy first.",
  deepHeading: "#### Step 2\nRevert the merge.",
  bold: "**Rollback plan**: stop the deploy, then revert.",
  italicAndStrike: "That was *probably* the cache, ~~not~~ the database.",
  lists: "Steps:\n\n1. Stop the deploy\n2. Revert `main`\n   - check _the_ logs\n- [ ] tell ops\n- [x] page on-call",
  code: "Run this:\n\n```bash\ngit revert HEAD && git push\n```",
  links:
    "See [the runbook](https://example.com/runbook?a=1&b=2), <https://example.com/status|the status page> or " +
    "https://example.com/docs_v2.",
  table: "| Step | Owner |\n|---|---|\n| Revert | **Bob** |\n| Verify | Carol |",
  emoji: "Deployed 🎉 all green ✅",
  quote: "> The deploy is paused.\n\nAgreed.",
  rule: "Before\n\n---\n\nAfter",
  markupLookalikes: "<!channel> a < b & c > d, @alice wrote <b>not a tag</b>",
  plainWords: "Use snake_case and 2 * 3 * 4 = 24, ~5 minutes.",
} as const;

/** Snapshots of answers still being written: a mark or a code block left open. */
export const MID_STREAM = {
  openBold: "**Rollback plan** for the **ne",
  loneMark: "**",
  openFence: "Run this:\n\n```bash\ngit revert",
  openCode: "Run `npm",
} as const;

export type ModelOutput = keyof typeof MODEL_OUTPUTS;
export type MidStream = keyof typeof MID_STREAM;
