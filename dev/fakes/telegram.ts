/**
 * @module
 * The Telegram Bot API fake for tests, `npm run dev` and the benches (the code is in ./telegram/): sendMessage,
 * editMessageText, sendMessageDraft, sendChatAction, setMessageReaction, getMe and the webhook methods, with
 * Telegram's checks, errors and flood control; people write, react and add or remove bots through control routes,
 * and the fake delivers their updates to each bot's webhook as Telegram does (privacy mode, `allowed_updates`, the
 * secret token header). Standalone: `node dev/fakes/telegram.ts` (TELEGRAM_FAKE_PORT, default 8096).
 */
import { serveStandalone } from "../serve-standalone.ts";
import { startTelegramFake } from "./telegram/server.ts";

export {
  startTelegramFake,
  TELEGRAM_FAKE_BOT,
  type RunningTelegramFake,
} from "./telegram/server.ts";

const DEFAULT_TELEGRAM_FAKE_PORT = 8096;

if (import.meta.main) {
  serveStandalone("telegram_fake", () =>
    startTelegramFake({ port: Number(process.env.TELEGRAM_FAKE_PORT ?? DEFAULT_TELEGRAM_FAKE_PORT) }),
  );
}
