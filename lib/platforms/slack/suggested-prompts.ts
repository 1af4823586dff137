/**
 * @module
 * SUGGESTED_PROMPTS, Slack's setting of the prompts shown when a person opens the bot's agent DM (./agent-surface.ts):
 * a JSON list of `{"title", "message"}` for every workspace, or a JSON object of such lists keyed `"*"` or by
 * workspace id (`T…`, or `E…:T…` inside an org; the workspace's own list wins). At most four a list, Slack's limit;
 * `[]` shows none. Unset: the defaults below. Malformed: no prompts anywhere, logged as `setting_ignored` (the
 * bot keeps answering).
 */
import { text } from "../../settings-schema.ts";
import * as z from "../../zod.ts";
import { jsonBody } from "../json-body.ts";

/** assistant.threads.setSuggestedPrompts takes up to four prompts (docs.slack.dev, its usage info). */
export const MAX_SUGGESTED_PROMPTS = 4;

const promptSchema = z.object({ title: text, message: text });
export type SuggestedPrompt = z.output<typeof promptSchema>;

/** The prompts by workspace id, `"*"` for every workspace without a list of its own. */
export type SuggestedPrompts = Readonly<Record<string, readonly SuggestedPrompt[]>>;

export const DEFAULT_SUGGESTED_PROMPTS: readonly SuggestedPrompt[] = [
  { title: "Catch me up on this channel", message: "Catch me up" },
  { title: "Summarise this thread", message: "Summarise this thread" },
  { title: "What did I miss?", message: "What did I miss?" },
];

const promptList = z
  .array(promptSchema)
  .check(z.maxLength(MAX_SUGGESTED_PROMPTS, `at most ${MAX_SUGGESTED_PROMPTS} prompts a list (Slack's limit)`));
const KEY_RULE = 'keys are "*" or a workspace id (T…, E…:T…)';
const byWorkspace = z.record(z.string().check(z.regex(/^(\*|(E[A-Z0-9]+:)?T[A-Z0-9]+)$/, KEY_RULE)), promptList);

export const suggestedPromptsSetting = z.pipe(
  z.optional(z.string()),
  z.transform((v, ctx): SuggestedPrompts => {
    const written = v?.trim();
    if (!written) return { "*": DEFAULT_SUGGESTED_PROMPTS };
    const json = jsonBody(written);
    if (!json.ok) {
      ctx.issues.push({ code: "custom", message: "not JSON", input: v });
      return z.NEVER;
    }
    const parsed = Array.isArray(json.value) ? promptList.safeParse(json.value) : byWorkspace.safeParse(json.value);
    if (parsed.success) return Array.isArray(parsed.data) ? { "*": parsed.data } : parsed.data;
    const issue = parsed.error.issues[0];
    // A key that is no workspace id is named by the rule alone: the key itself is the deployer's text.
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    const message = issue?.code === "invalid_key" ? KEY_RULE : `${where}${issue?.message ?? "not {title, message}"}`;
    ctx.issues.push({ code: "custom", message, input: v });
    return z.NEVER;
  }),
);

/** What a malformed setting reads as: no prompts in any workspace. */
export const NO_SUGGESTED_PROMPTS: SuggestedPrompts = {};

/** The prompts of workspace `tenant` (`T…`, or `E…:T…`): its own list, else the org-less id's, else everyone's. */
export function promptsOf(prompts: SuggestedPrompts, tenant: string): readonly SuggestedPrompt[] {
  const team = tenant.slice(tenant.indexOf(":") + 1);
  return prompts[tenant] ?? prompts[team] ?? prompts["*"] ?? [];
}
