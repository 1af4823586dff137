/**
 * @module
 * The Teams fake for tests, `npm run dev` and the benches (the code is in ./teams/): the Bot Connector's REST API as
 * the Connector checks it, the Microsoft identity platform's token endpoint for the bot, and the Connector's OpenID
 * metadata and keys; people write in channels, group chats and 1:1 chats through control routes, and the fake
 * hands back what the Connector would send the bot, signed with its own key. Standalone: `node dev/fakes/teams.ts`
 * (TEAMS_FAKE_PORT, default 8099).
 */
import { serveStandalone } from "../serve-standalone.ts";
import { startTeamsFake } from "./teams/server.ts";

export { teamsFakeOptions } from "./teams/settings.ts";
export { startTeamsFake } from "./teams/server.ts";

const DEFAULT_TEAMS_FAKE_PORT = 8099;

if (import.meta.main) {
  serveStandalone("teams_fake", () =>
    startTeamsFake({ port: Number(process.env.TEAMS_FAKE_PORT ?? DEFAULT_TEAMS_FAKE_PORT) }),
  );
}
