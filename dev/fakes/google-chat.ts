/**
 * @module
 * The Google Chat fake for tests, `npm run dev` and the benches (the code is in ./google-chat/): the Chat API's
 * message methods and media download as Google checks them, Google's token endpoint for service accounts, and the
 * key sets Google publishes; people write, mention the app, run its commands and add or remove it through control
 * routes, and the fake sends the app what Chat would, signed with its own keys. Standalone: `node
 * dev/fakes/google-chat.ts` (GOOGLE_CHAT_FAKE_PORT, default 8098).
 */
import { serveStandalone } from "../serve-standalone.ts";
import { startGoogleChatFake } from "./google-chat/server.ts";

export { googleChatFakeOptions } from "./google-chat/settings.ts";
export {
  CERTS_PATH,
  JWKS_PATH,
  TOKEN_PATH,
  startGoogleChatFake,
  type RunningGoogleChatFake,
} from "./google-chat/server.ts";

const DEFAULT_GOOGLE_CHAT_FAKE_PORT = 8098;

if (import.meta.main) {
  serveStandalone("google_chat_fake", () =>
    startGoogleChatFake({ port: Number(process.env.GOOGLE_CHAT_FAKE_PORT ?? DEFAULT_GOOGLE_CHAT_FAKE_PORT) }),
  );
}
