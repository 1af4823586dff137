/**
 * @module
 * A seeded generator of hard texts for token counting: English, many scripts, emoji sequences, code, URLs,
 * repeated characters, special-token text and random code points. Same seed, same corpus.
 */

import { seededRandom, type Random } from "../../dev/faults/seeded-random.ts";

export { seededRandom, type Random };

export const pick = <T>(rnd: Random, items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
const int = (rnd: Random, min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));
const repeat = (_rnd: Random, n: number, make: () => string, sep = "") => Array.from({ length: n }, make).join(sep);

export const ENGLISH = [
  "The deploy went out at noon, but the webhook kept timing out until we raised the limit.",
  "Could you check whether the staging database still has yesterday's snapshot? I'd like to compare the numbers.",
  "Honestly, I think we're overthinking this; a simple retry with exponential backoff should be enough.",
  "Meeting moved to Thursday 3:30pm. Bring the quarterly report and your questions about the new pricing tiers.",
  "She said the bot answered twice when two people mentioned it at the same time, which shouldn't happen.",
  "Interoperability, internationalization and accessibility aren't afterthoughts: they're requirements.",
  "Why does the summary forget the first half of the discussion? It's only been twenty minutes.",
  "lol yeah that's fine, ship it 🚀 and let's see what breaks over the weekend",
];

const SCRIPTS = [
  "我们明天下午三点在会议室讨论新版本的发布计划，请大家提前准备好材料。",
  "東京の天気は明日から崩れるそうです。傘を忘れないでくださいね。ありがとうございます！",
  "오늘 회의는 취소되었습니다. 다음 주에 다시 일정을 잡겠습니다.",
  "مرحبا بكم في الاجتماع، سنناقش اليوم خطة الإصدار الجديدة والميزانية.",
  "Привет всем! Сегодня обсудим план выпуска новой версии и бюджет на следующий квартал.",
  "Καλημέρα σε όλους, η συνάντηση μεταφέρθηκε για την Πέμπτη.",
  "नमस्ते, आज की बैठक में हम नई योजना पर चर्चा करेंगे।",
  "Ça m'a coûté très cher, mais le café était délicieux à Noël. Où est la gare ?",
  "Tiếng Việt có rất nhiều dấu: người, được, những, trường học.",
  "Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy.",
  "שלום לכולם, הפגישה נדחתה ליום חמישי.",
  "สวัสดีครับ วันนี้เราจะประชุมเรื่องแผนงานใหม่",
  "e\u0301 a\u0300 o\u0302 n\u0303 combining marks: Z\u0351\u0364a\u0353l\u0314g\u0357o\u0305",
];

const EMOJI = [
  "👨‍👩‍👧‍👦",
  "👩🏽‍💻",
  "🏳️‍🌈",
  "🇫🇷",
  "🇯🇵",
  "🇺🇸",
  "👍🏿",
  "👋🏼",
  "1️⃣",
  "❤️‍🔥",
  "🧑‍🤝‍🧑",
  "😂",
  "🙏",
  "🦄",
  "✨",
  "🫠",
  "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
];

const CODE = [
  "export async function handler(req: Request): Promise<Response> {\n  const body = await req.json();\n  return new Response(JSON.stringify({ ok: true }), { status: 200 });\n}\n",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: code as a person pastes it
  "if (x != null && y >= 0x1F) { arr[i++] = (a << 3) | b; } // TODO: fix\n\t\treturn `${name}:${value}`;",
  '{"type":"event_callback","event":{"type":"message","text":"hi <@U123ABC>","ts":"1712345678.000100"}}',
  "SELECT id, name FROM users WHERE created_at > NOW() - INTERVAL '7 days' ORDER BY id DESC LIMIT 10;",
  "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n\n\n\nprint([fib(i) for i in range(20)])",
];

const SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|im_sep|>", "<|fim_prefix|>", "<|endofprompt|>"];

function url(rnd: Random): string {
  const hex = repeat(rnd, int(rnd, 8, 40), () => pick(rnd, "0123456789abcdef".split("")));
  const b64 = repeat(rnd, int(rnd, 10, 60), () =>
    pick(rnd, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".split("")),
  );
  return `https://example.com/${hex}/view?token=${b64}&utm_source=slack#L${int(rnd, 1, 9999)}`;
}

function randomCodePoints(rnd: Random, n: number): string {
  const ranges: [number, number][] = [
    [0x20, 0x7e],
    [0xa0, 0x24f],
    [0x370, 0x6ff],
    [0x900, 0xdff],
    [0x3040, 0x9fff],
    [0xac00, 0xd7a3],
    [0x1f300, 0x1faff],
    [0x20000, 0x2a6df],
  ];
  return repeat(rnd, n, () => {
    const [lo, hi] = pick(rnd, ranges);
    return String.fromCodePoint(int(rnd, lo, hi));
  });
}

function randomAscii(rnd: Random, n: number): string {
  return repeat(rnd, n, () => String.fromCharCode(int(rnd, 0x20, 0x7e)));
}

function randomLetters(rnd: Random, n: number): string {
  return repeat(rnd, n, () => pick(rnd, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ '".split("")));
}

/** One sample of a random kind; long ones run to several thousand characters. */
export function hardText(rnd: Random): string {
  switch (int(rnd, 0, 11)) {
    case 0:
      return repeat(rnd, int(rnd, 1, 30), () => pick(rnd, ENGLISH), " ");
    case 1:
      return repeat(rnd, int(rnd, 1, 20), () => pick(rnd, SCRIPTS), pick(rnd, [" ", "\n", ""]));
    case 2:
      return repeat(rnd, int(rnd, 1, 60), () => pick(rnd, EMOJI), pick(rnd, ["", " ", "‍"]));
    case 3:
      return repeat(rnd, int(rnd, 1, 10), () => pick(rnd, CODE), "\n");
    case 4:
      return repeat(rnd, int(rnd, 1, 8), () => url(rnd), " ");
    case 5:
      return pick(rnd, ["a", "z", "!", " ", "\n", "ー", "😂", "ab", "12", "-", "=", "\t", ".", "é", "字"]).repeat(
        int(rnd, 1, 3000),
      );
    case 6:
      return repeat(rnd, int(rnd, 1, 10), () => pick(rnd, [...SPECIAL, pick(rnd, ENGLISH)]), pick(rnd, ["", " "]));
    case 7:
      return randomCodePoints(rnd, int(rnd, 1, 400));
    case 8:
      return randomAscii(rnd, int(rnd, 1, 600));
    case 9:
      return randomLetters(rnd, int(rnd, 1, 600));
    case 10:
      return (
        String(int(rnd, 0, 2 ** 30)) +
        repeat(rnd, int(rnd, 1, 50), () => String(int(rnd, 0, 99999)), pick(rnd, [",", " ", ""]))
      );
    default:
      return repeat(rnd, int(rnd, 2, 12), () => hardText(rnd), pick(rnd, [" ", "\n", "\n\n", ""]));
  }
}
