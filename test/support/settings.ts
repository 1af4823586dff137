/**
 * @module
 * The smallest set of settings the Worker accepts, for tests of settings parsing.
 */
export const MINIMAL_SETTINGS = {
  UPSTASH_REDIS_REST_URL: "http://127.0.0.1:8079",
  UPSTASH_REDIS_REST_TOKEN: "secret-redis-token",
  QSTASH_TOKEN: "qstash-token",
  QSTASH_CURRENT_SIGNING_KEY: "sig_current",
  QSTASH_NEXT_SIGNING_KEY: "sig_next",
  PUBLIC_BASE_URL: "https://bot.example.com/",
  OPENAI_API_KEY: "sk-secret",
  TOKEN_ENCRYPTION_KEY: "M+e7RUJyulaG3rY9rqXBRhir6C14DMhIkwLQGzqqdbE=",
};
