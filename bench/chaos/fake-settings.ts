/**
 * @module
 * The platform fakes' settings for bench/chaos (./run.ts).
 */
/**
 * The soak moves time on a virtual clock (QStash's schedule and Redis TTLs, the Worker's call budgets among them),
 * while the fake's per-minute tiers count real time: a virtual hour's calls would meet one real minute's limit, a
 * 429 that no production timing gives. The tiers are off here, and Telegram's flood control too (bench:latency
 * measures refusals at real timings), and Google Chat's 60 writes a minute a space; the injected 429s on
 * chat.postMessage, sendMessage and spaces.messages.create still come.
 */
export async function realTimeLimitsOff(fakes: {
  slackControl: string;
  telegramFake: string;
  googleChatFake: string;
}): Promise<void> {
  const slack = await fetch(`${fakes.slackControl}/__config`, {
    method: "POST",
    body: JSON.stringify({ rateLimits: { enabled: false } }),
  });
  if (!slack.ok) throw new Error(`the Slack fake refused its settings: ${slack.status}`);
  const telegram = await fetch(`${fakes.telegramFake}/__config`, {
    method: "POST",
    body: JSON.stringify({ limits: { enabled: false } }),
  });
  if (!telegram.ok) throw new Error(`the Telegram fake refused its settings: ${telegram.status}`);
  const chat = await fetch(`${fakes.googleChatFake}/__config`, {
    method: "POST",
    body: JSON.stringify({ rateLimits: false }),
  });
  if (!chat.ok) throw new Error(`the Google Chat fake refused its settings: ${chat.status}`);
}
