/**
 * @module
 * The Telegram fake's own bot, which `npm run dev`, the tests and the benches use unless they add bots of their
 * own (`POST /__bot`). A module of its own, with no Node import, so that tests in workerd can name it too.
 */

export const TELEGRAM_FAKE_BOT = {
  token: "7000000001:local-telegram-bot-token-0000",
  id: 7_000_000_001,
  username: "ParleyLocalBot",
  first_name: "Parley",
} as const;
