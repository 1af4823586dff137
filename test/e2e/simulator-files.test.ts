/**
 * @module
 * Attaching a picture on the simulator page: the file goes into the platform's fake as a pasted file, the message
 * carries the platform's own reference to it, and the bot's answer (the local model's) describes the picture that
 * reached the model, on Slack and over SMS/MMS.
 */
import { describe, expect, it } from "vitest";
import { encodePng } from "../../dev/files/png.ts";
import { hasChromium } from "./browser.ts";
import { ANSWER_TIMEOUT_MS } from "./simulator-page.ts";
import { simulatorSession } from "./simulator-session.ts";

const picture = (colour: readonly [number, number, number]) => ({
  name: "error.png",
  mimeType: "image/png",
  buffer: encodePng(64, 48, colour),
});

describe.skipIf(!hasChromium())("attaching a picture in the simulator", () => {
  const session = simulatorSession();

  it("answers a Slack screenshot with a question from the picture", async () => {
    const { sim } = session;
    await sim.pickPerson("alice");
    await sim.page.setInputFiles(
      'form[data-platform="slack"]:not([data-thread]) input[type=file]',
      picture([220, 30, 30]),
    );
    await sim.page.fill("#slack-input", "@Parley what's this error?");
    await sim.page.press("#slack-input", "Enter");
    await expect
      .poll(() => sim.botAnswers().first().textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toContain("PNG picture, 64×48, mostly red");
    expect(await sim.page.locator("#slack-messages .message", { hasText: "📎 error.png" }).count()).toBe(1);
  });

  it("answers a picture texted alone (MMS)", async () => {
    const { sim } = session;
    await sim.selectTab("sms");
    await sim.page.setInputFiles('form[data-platform="sms"] input[type=file]', picture([30, 60, 220]));
    await sim.page.click('form[data-platform="sms"] button');
    await expect
      .poll(() => sim.botAnswers("#sms-messages").first().textContent(), { timeout: ANSWER_TIMEOUT_MS })
      .toContain("mostly blue");
    expect(session.consoleErrors).toEqual([]);
  });
});
