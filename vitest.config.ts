import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/** The official QStash dev credentials: the stand-in signs with them, the Worker verifies with them. */
const QSTASH_DEV = {
  QSTASH_TOKEN: "eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=",
  QSTASH_CURRENT_SIGNING_KEY: "sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r",
  QSTASH_NEXT_SIGNING_KEY: "sig_5ZB6DVzB1wjE8S6rZ7eenA8Pdnhs",
};

/** The suites that connect to the fake Discord Gateway as the bot (the sharded suite has a Gateway of its own). */
const GATEWAY_SUITES = [
  "test/worker/discord-gateway.test.ts",
  "test/worker/discord-streaming.test.ts",
  "test/worker/discord-gateway-intents.test.ts",
  "test/worker/discord-conformance.test.ts",
  "test/worker/discord-asker-history.test.ts",
];

/** The Worker in workerd, with the local stack's addresses and test settings as bindings. */
const workerPlugin = cloudflareTest(({ inject }) => ({
  // Not ./wrangler.toml: wrangler would also load a developer's .dev.vars from beside it (see test/wrangler.toml).
  wrangler: { configPath: "./test/wrangler.toml" },
  miniflare: {
    bindings: {
      ...QSTASH_DEV,
      UPSTASH_REDIS_REST_URL: inject("redisRestUrl"),
      UPSTASH_REDIS_REST_TOKEN: inject("redisRestToken"),
      QSTASH_URL: inject("qstashUrl"),
      JOB_TAP_URL: inject("jobTapUrl"),
      PUBLIC_BASE_URL: `${inject("jobTapUrl")}/t/default`,
      OPENAI_API_KEY: "test-key",
      // A local-only key: seals the personal fields of queued jobs, keys the pseudonyms in log lines.
      TOKEN_ENCRYPTION_KEY: "j9Bq+GR42d31ZfaMXifcWY3jhoQh1xdioBTH7U2d31E=",
      OPENAI_BASE_URL: inject("modelUrl"),
      SLACK_SIGNING_SECRET: "test-slack-signing-secret",
      SLACK_BOT_TOKEN: "xoxb-test-bot-token",
      SLACK_API_BASE_URL: inject("slackApiUrl"),
      TWILIO_API_BASE_URL: inject("twilioApiUrl"),
      TELEGRAM_API_BASE_URL: inject("telegramApiUrl"),
      // Google Chat's endpoints on the fake; it is on only in the suites that set GOOGLE_CHAT_AUDIENCE.
      GOOGLE_CHAT_API_BASE_URL: inject("googleChatUrl"),
      GOOGLE_OAUTH_TOKEN_URL: `${inject("googleChatUrl")}/token`,
      GOOGLE_CHAT_CERTS_URL: `${inject("googleChatUrl")}/service_accounts/v1/metadata/x509/chat@system.gserviceaccount.com`,
      GOOGLE_CHAT_JWKS_URL: `${inject("googleChatUrl")}/oauth2/v3/certs`,
      GOOGLE_CHAT_SERVICE_ACCOUNT: inject("googleChatServiceAccount"),
      // Teams' endpoints on the fake; it is on only in the suites that set TEAMS_APP_ID and TEAMS_APP_PASSWORD.
      TEAMS_OPENID_METADATA_URL: `${inject("teamsUrl")}/v1/.well-known/openidconfiguration`,
      TEAMS_LOGIN_URL: inject("teamsUrl"),
      TEAMS_EXTRA_SERVICE_URL: inject("teamsUrl"),
      DISCORD_APPLICATION_ID: "100000000000000001",
      DISCORD_API_BASE_URL: inject("discordApiUrl"),
      DISCORD_GATEWAY_URL: inject("discordGatewayUrl"),
      DISCORD_GATEWAY_CONTROL_URL: inject("discordGatewayControlUrl"),
      DISCORD_SHARDED_API_BASE_URL: inject("discordShardedApiUrl"),
      DISCORD_SHARDED_GATEWAY_URL: inject("discordShardedGatewayUrl"),
      DISCORD_SHARDED_GATEWAY_CONTROL_URL: inject("discordShardedGatewayControlUrl"),
      BOT_NAME: "Parley",
      BOT_ALIASES: "parley bot",
      // The memory job adds model calls that quote the exchange (and so match other suites' markers):
      // off here, switched on by the memory suites.
      MEMORY_ENABLED: "false",
      // Answers are posted whole and without working signs, as the suites before streaming expect;
      // the streaming suites switch both on.
      STREAMING: "false",
      SHOW_WORKING: "false",
      SUMMARY_ENABLED: "false",
      // Every Slack conversation start would read its channel's history on the one test workspace, whose Tier 3
      // budget (50 calls a minute per workspace, as Slack counts it and the fake enforces) a full run spends in
      // seconds: off here, switched on by the suites about what the bot reads when it is called.
      BACKFILL_MESSAGES: "0",
    },
  },
}));

export default defineConfig({
  test: {
    globalSetup: ["test/support/global-setup.ts"],
    // Most suites wait on the stand-ins, the fakes and real timers, not on the CPU: four files at a time on a
    // 2-core machine take the run from 7.9 to 3.2-3.7 minutes (vitest's default here is one file after another).
    // The "gateway" project below still runs its files one after the other.
    maxWorkers: 4,
    // A passing run fits on a screen: the tests' console output (the Worker's JSON log lines among it) is shown for
    // failing tests only, and so is what the stand-ins and workerd print beside them
    // (test/support/background-output.ts).
    silent: "passed-only",
    // A dot a test: the output's length says nothing of how many files there are, so CI's cap on it (.ci/run) catches
    // stray output only, and a suite need not be merged into another file to stay under it.
    reporters: ["dot", "./test/support/background-output.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          environment: "node",
          // Middleware keeps its tests beside it (functions/middleware/*.test.ts), as hono's own does.
          include: [
            "test/unit/**/*.test.ts",
            "test/flow/**/*.test.ts",
            "test/dev/**/*.test.ts",
            "functions/**/*.test.ts",
          ],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        plugins: [workerPlugin],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          exclude: GATEWAY_SUITES,
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        plugins: [workerPlugin],
        test: {
          name: "gateway",
          include: GATEWAY_SUITES,
          // Each suite runs its own Gateway connection against the one fake Gateway, as the same bot: two at once
          // take each other's session.
          fileParallelism: false,
          testTimeout: 60_000,
        },
      },
      // `npm run bench:digests` (bench/digests/run.ts): a simulated month on the same stack, only when asked for.
      {
        extends: true,
        plugins: [workerPlugin],
        test: {
          name: "bench-digests",
          include: process.env.PARLEY_BENCH === "digests" ? ["bench/digests/month.bench.ts"] : [],
          testTimeout: 3_600_000,
        },
      },
      // The browser tests against the stack `npm run dev` starts; they skip, saying why, without /usr/bin/chromium.
      "test/e2e/vitest.config.ts",
    ],
  },
});
