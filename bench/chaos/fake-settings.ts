/**
 * @module
 * The platform fakes' settings for bench/chaos (./run.ts).
 */
/**
 * The soak moves time on a virtual clock (QStash's schedule and Redis TTLs, the Worker's call budgets among them),
 * while the fake's per-minute tiers count real time: a virtual hour's calls would meet one real minute's limit, a
 * 429 that no production timing gives. The tiers are off here, and Telegram's flood control too (bench:latency
 * measures refusals at real timings), Google Chat's 60 writes a minute a space, and the Bot Connector's
 * per-conversation limits; the injected 429s on chat.postMessage, sendMessage, spaces.messages.create and send
 * activity still come.
 */
export async function realTimeLimitsOff(fakes: {
  slackControl: string;
  telegramFake: string;
  googleChatFake: string;
  teamsFake: string;
}): Promise<void> {
  const settings: [string, string, unknown][] = [
    ["Slack", fakes.slackControl, { rateLimits: { enabled: false } }],
    ["Telegram", fakes.telegramFake, { limits: { enabled: false } }],
    ["Google Chat", fakes.googleChatFake, { rateLimits: false }],
    ["Teams", fakes.teamsFake, { rateLimits: false }],
  ];
  for (const [name, url, body] of settings) {
    const res = await fetch(`${url}/__config`, { method: "POST", body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`the ${name} fake refused its settings: ${res.status}`);
  }
}
