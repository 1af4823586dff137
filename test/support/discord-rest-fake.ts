/**
 * @module
 * A Discord REST fake of a test file's own (Node tests of dev/fakes/discord): started before the file's tests, reset
 * before each, closed after; its API base (`url`, …/api/v10) and its control routes' origin.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { startDiscordFake, type RunningDiscordFake } from "../../dev/fakes/discord.ts";

export interface DiscordFakeOfSuite {
  readonly url: string;
  readonly origin: string;
}

export function discordFakeDuringSuite(): DiscordFakeOfSuite {
  let fake: RunningDiscordFake | undefined;
  beforeAll(async () => {
    fake = await startDiscordFake({ port: 0 });
  });
  afterAll(() => fake?.close());
  const running = {
    get url() {
      if (!fake) throw new Error("the Discord fake starts in beforeAll");
      return fake.url;
    },
    get origin() {
      return running.url.replace(/\/api\/v10$/, "");
    },
  };
  beforeEach(() => fetch(`${running.origin}/__reset`, { method: "POST" }));
  return running;
}
