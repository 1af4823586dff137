/**
 * @module
 * What a person does on the simulator page and what its panels show, for the browser tests: pick who types, switch
 * the Slack workspace, write in the channel or a thread (Slack or Discord), open a thread and read the inspector
 * (decisions, conversation, parent message, prompts).
 */
import type { Locator, Page } from "playwright-core";

/** Generous: a job goes through the QStash stand-in, the Worker, the local model and the platform fake. */
export const ANSWER_TIMEOUT_MS = 20_000;
/** #general of Acme, the first workspace the page shows (`npm run dev` installs Acme and Globex). */
export const SLACK_PLACE = "slack|T0ACME|C0SIMGENERAL|";

export interface InspectorView {
  /** The admin key of the conversation in view. */
  place: string;
  /** "Alice (2), Bob (1)", or null when the panel says there is no conversation. */
  participants: string | null;
  /** The message the thread or a reply is about ("Name: text"), "—" when none; null without a conversation. */
  parent: string | null;
  /** Each decision row: who wrote the message, yes/no/judge, the reason. */
  decisions: { author: string; respond: string; reason: string }[];
  /** The full text of each prompt (newest first), as the page shows it. */
  prompts: string[];
}

/** What a drawn message shows: its bold runs, code blocks, inline code, links, list items and whole text. */
export async function drawn(message: Locator) {
  const text = message.locator('[data-testid="message-text"]');
  return {
    bold: await text.locator("strong").allTextContents(),
    blocks: await text.locator("pre").allTextContents(),
    code: await text.locator("code").allTextContents(),
    links: await text.locator("a").evaluateAll((as) => as.map((a) => `${a.textContent} → ${a.getAttribute("href")}`)),
    items: await text.locator("li").allTextContents(),
    text: (await text.textContent()) ?? "",
  };
}

export function simulatorPage(page: Page) {
  const botAnswers = (list = "#slack-messages") => page.locator(`${list} .message.bot`);

  async function pickPerson(person: string): Promise<void> {
    await page.click(`#person-picker button[data-person="${person}"]`);
  }

  async function write(input: string, list: string, person: string, text: string): Promise<void> {
    await pickPerson(person);
    await page.fill(input, text);
    await page.press(input, "Enter");
    await page.locator(`${list} .message`, { hasText: text }).first().waitFor();
  }

  return {
    page,
    botAnswers,
    pickPerson,
    decision: (author: string, respond: string): Locator =>
      page.locator(`#decisions [data-testid="decision"][data-respond="${respond}"]`).filter({ hasText: author }),
    /** Writes in the Slack channel as `person` and waits until the message shows. */
    say: (person: string, text: string) => write("#slack-input", "#slack-messages", person, text),
    /** Writes in the open thread as `person`. */
    reply: (person: string, text: string) => write("#thread-input", "#thread-messages", person, text),
    /** Writes in the Teams conversation in view as `person` (the Teams tab must be open). */
    sayOnTeams: (person: string, text: string) => write("#teams-input", "#teams-messages", person, text),
    /** Texts the bot from `person`'s phone (the SMS tab must be open). */
    text: (person: string, body: string) => write("#sms-input", "#sms-messages", person, body),
    /** Switches the Slack view to the workspace of that name and waits until the inspector follows. */
    async selectWorkspace(name: string): Promise<void> {
      const button = page.locator("#workspace-picker button", { hasText: name });
      const team = await button.getAttribute("data-workspace");
      await button.click();
      await page.waitForFunction(`document.querySelector("#place").textContent.startsWith("slack|${team}|")`);
    },
    /** Who wrote each message of the Slack channel in view, in order. */
    channelAuthors: (): Promise<string[]> => page.locator("#slack-messages .message .author").allTextContents(),
    async selectTab(tab: "slack" | "discord" | "sms" | "telegram" | "google-chat" | "teams"): Promise<void> {
      await page.click(`#tabs button[data-tab="${tab}"]`);
    },
    /** Opens the thread of the channel message that contains `parentText`; returns the thread's admin key. */
    async openThread(parentText: string): Promise<string> {
      const parent = page.locator("#slack-messages .message", { hasText: parentText }).first();
      await parent.locator('[data-testid="open-thread"]').click();
      await page.locator("#thread-pane").waitFor({ state: "visible" });
      // The inspector switches to the thread once its first poll of the thread's conversation is back.
      await page.waitForFunction(`!document.querySelector("#place").textContent.endsWith("|")`);
      return (await page.locator("#place").textContent()) ?? "";
    },
    /** Writes a channel message in Discord's #general as `person` (through the Gateway, not /ask). */
    async sayOnDiscord(person: string, text: string): Promise<void> {
      await page.selectOption("#discord-mode", "message");
      await write("#discord-input", "#discord-messages", person, text);
    },
    /**
     * Starts (or opens) the Discord thread of the channel message that contains `parentText`; returns its admin key.
     */
    async openDiscordThread(parentText: string): Promise<string> {
      const parent = page.locator("#discord-messages .message", { hasText: parentText }).first();
      const id = await parent.getAttribute("data-id");
      await parent.locator('[data-testid="open-discord-thread"]').click();
      await page.locator("#discord-thread-pane").waitFor({ state: "visible" });
      await page.waitForFunction(`document.querySelector("#place").textContent.endsWith("|${id}|")`);
      return (await page.locator("#place").textContent()) ?? "";
    },
    /** Writes in the open Discord thread as `person`. */
    replyInDiscordThread: (person: string, text: string) =>
      write("#discord-thread-input", "#discord-thread-messages", person, text),
    async inspector(): Promise<InspectorView> {
      const rows = await page.locator('#decisions [data-testid="decision"]').all();
      const decisions = await Promise.all(
        rows.map(async (row) => ({
          author: (await row.locator("span").first().textContent()) ?? "",
          respond: (await row.getAttribute("data-respond")) ?? "",
          reason: (await row.getAttribute("data-reason")) ?? "",
        })),
      );
      // Read at once, never waited for: the panel is redrawn on every poll.
      const [participants] = await page.locator('[data-testid="participants"]').allTextContents();
      const [parent] = await page.locator('[data-testid="parent"]').allTextContents();
      return {
        place: (await page.locator("#place").textContent()) ?? "",
        participants: participants ?? null,
        parent: parent ?? null,
        decisions,
        prompts: await page.locator('[data-testid="prompt"] pre').allTextContents(),
      };
    },
  };
}

export type SimulatorPage = ReturnType<typeof simulatorPage>;
