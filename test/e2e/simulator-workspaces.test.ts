/**
 * @module
 * Two Slack workspaces in the simulator: `npm run dev` installs Acme and Globex through the Worker's real install
 * routes against the Slack fake, both with the same #general (same channel id) and the same people (same user ids).
 * The same words said in both stay in their own workspace's conversation, each answer is posted with that
 * workspace's own token, and switching the page shows each workspace's own history and conversation state.
 */
import { describe, expect, it } from "vitest";
import { hasChromium } from "./browser.ts";
import { ANSWER_TIMEOUT_MS } from "./simulator-page.ts";
import { simulatorSession } from "./simulator-session.ts";
import type { RunningStack } from "./stack.ts";

const QUESTION = "@Parley what is the capital of France?";
const FIRST_ANSWER = `(local model) I see no earlier messages. You said: "@Parley what is the capital of France?"`;

async function fake<T>(stack: RunningStack, path: string): Promise<T> {
  return (await (await fetch(`${stack.slackFakeUrl}${path}`)).json()) as T;
}

describe.skipIf(!hasChromium())("two Slack workspaces in the simulator", () => {
  const session = simulatorSession();

  it("were installed through /slack/install and the callback: one oauth.v2.access each, their tokens sealed in Redis", async () => {
    const { stack } = session;
    const stats = await fake<{ oauth: { exchanges: number; refused: number } }>(stack, "/__stats");
    expect(stats.oauth).toEqual({ exchanges: 2, refreshes: 0, refused: 0 });
    const teams = await fake<{ id: string; name: string; installed: boolean }[]>(stack, "/__teams");
    expect(teams.filter((t) => t.id !== "T0FAKETEAM").map((t) => `${t.id} ${t.name}`)).toEqual([
      "T0ACME Acme",
      "T0GLOBEX Globex",
    ]);

    const keys = (await stack.redis(["KEYS", "parley:install:*"])) as string[];
    expect(keys.sort()).toEqual(["parley:install:slack|T0ACME", "parley:install:slack|T0GLOBEX"]);
    for (const key of keys) {
      const stored = String(await stack.redis(["GET", key]));
      // Sealed: neither the bot token nor any other field can be read from the stored value. (Its base64 text may
      // hold any three letters by chance, "xox" too; a quoted field name or a token's "xoxb-" it holds only in clear.)
      expect(stored).not.toMatch(/"(botToken|botUserId|teamName)"|xoxb-|"Acme"|"Globex"/);
    }
    for (const [team, name] of [
      ["T0ACME", "Acme"],
      ["T0GLOBEX", "Globex"],
    ] as const) {
      const res = await fetch(`${stack.workerUrl}/admin/tenants/slack/${team}`, {
        headers: { Authorization: `Bearer ${stack.adminToken}` },
      });
      const view = (await res.json()) as { installation: { teamName: string; botUserId: string } | null };
      expect(view.installation).toMatchObject({ teamName: name, botUserId: `UBOT${team.slice(1)}` });
      expect(JSON.stringify(view)).not.toContain("xox");
    }
  });

  it("keeps the same words in the same #general of Acme and Globex apart, each answered in its own workspace", async () => {
    const { sim, stack } = session;
    expect(await sim.page.locator("#workspace-name").textContent()).toBe("Acme");
    await sim.say("alice", QUESTION);
    await expect
      .poll(() => sim.botAnswers().first().textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toContain(FIRST_ANSWER);

    await sim.selectWorkspace("Globex");
    expect(await sim.channelAuthors()).toEqual([]);
    // The same person says the same words: a conversation of Globex's own, which has not seen Acme's message.
    await sim.say("alice", QUESTION);
    await expect
      .poll(() => sim.botAnswers().first().textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toContain(FIRST_ANSWER);
    await sim.say("bob", "Parley, and what about Germany?");
    await expect
      .poll(() => sim.botAnswers().nth(1).textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toContain("1 earlier message from Alice and 1 of my answers");
    await expect
      .poll(async () => (await sim.inspector()).participants, { timeout: ANSWER_TIMEOUT_MS })
      .toBe("Alice (1), Bob (1)");
    expect(await sim.channelAuthors()).toEqual(["Alice", "Parley", "Bob", "Parley"]);
    expect((await sim.inspector()).place).toBe("slack|T0GLOBEX|C0SIMGENERAL|");
    await expect
      .poll(() => sim.page.locator("#tenant").textContent())
      .toMatch(/^Workspace Globex \(T0GLOBEX\) · installed .* bot UBOT0GLOBEX$/);

    await sim.selectWorkspace("Acme");
    expect(await sim.channelAuthors()).toEqual(["Alice", "Parley"]);
    await expect
      .poll(async () => (await sim.inspector()).participants, { timeout: ANSWER_TIMEOUT_MS })
      .toBe("Alice (1)");
    const acme = await sim.inspector();
    expect(acme.place).toBe("slack|T0ACME|C0SIMGENERAL|");
    expect(acme.decisions).toEqual([{ author: "Alice", respond: "yes", reason: "direct_mention" }]);
    expect(acme.prompts).toHaveLength(1);
    expect(acme.prompts[0]).not.toContain("Germany");
    await expect
      .poll(() => sim.page.locator("#tenant").textContent())
      .toMatch(/^Workspace Acme \(T0ACME\) · installed .* bot UBOT0ACME$/);

    // In the fake: each answer is in the workspace of the token it was posted with, by that workspace's bot.
    const bot = await fake<{ team: string; bot_id?: string }[]>(stack, "/__messages?channel=C0SIMGENERAL");
    const byTeam = (team: string) => bot.filter((m) => m.team === team && m.bot_id).map((m) => m.bot_id);
    expect(byTeam("T0ACME")).toEqual(["BBOT0ACME"]);
    expect(byTeam("T0GLOBEX")).toEqual(["BBOT0GLOBEX", "BBOT0GLOBEX"]);
    expect(await fake<unknown[]>(stack, "/__api?ok=false")).toEqual([]);
    expect(session.consoleErrors).toEqual([]);
  });
});
