/**
 * @module
 * Whether a message that names someone talks TO them or ABOUT them. People address someone by opening with the
 * name ("parley: …", "Parley can you …", "hey bob"), by a vocative comma (", parley?"), by thanking them by name at
 * the end ("thanks erin!"), or by the name alone ("parley?"); they refer to someone by naming them mid-sentence
 * ("as parley said", "ask parley", "parley is good at this"). The same reading serves the bot and everyone else.
 */
import { isWordChar } from "./names.ts";

export type NameUse = "address" | "reference";

/** Words that may come before a name and still leave it at the opening: greetings, thanks, fillers. */
const OPENERS = new Set(
  (
    "hey hi hello hiya yo ok okay oh so and well sorry please thanks thank you thx ty cheers morning evening dear " +
    "hmm ah also but"
  ).split(" "),
);
/** Words that end an address when they close the message before the name ("thanks erin"). */
const CLOSING_OPENERS = new Set("hey hi hello thanks thank thx ty cheers bye night morning".split(" "));
/** A verb straight after an opening name makes the name the subject of a sentence about them ("parley is good"). */
const ABOUT_VERBS = new Set(
  (
    "is was has had does did doesnt didnt isnt wasnt hasnt said says told tells knows knew thinks thought seems " +
    "seemed gave gives answered replied suggested suggests wrote says just already also always never"
  ).split(" "),
);
/**
 * A modal after an opening name addresses them only when "you" follows ("parley can you …", not "parley can be slow").
 */
const MODALS = new Set("can could will would should might may cant wont".split(" "));
/** After a modal, a pronoun makes a question put to the named one ("parley, can you…", "parley should I…"). */
const ASKED = new Set(["you", "u", "ya", "i", "we"]);
const WORD = /[\p{L}\p{N}_']+/gu;
const APOSTROPHE = /'/g;

/** A character of WORD in ASCII text. */
function isAsciiWordCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 39
  );
}

/** The words of `text`, apostrophes dropped ("don't" → "dont"); ASCII text, most chat, is cut by hand. */
function words(text: string): string[] {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) return Array.from(text.matchAll(WORD), (m) => m[0].replace(APOSTROPHE, ""));
  }
  const found: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && isAsciiWordCode(text.charCodeAt(i))) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      const word = text.slice(start, i);
      found.push(word.includes("'") ? word.replace(APOSTROPHE, "") : word);
    }
    start = -1;
  }
  return found;
}

function hasWord(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isWordChar(text[i])) return true;
  return false;
}

function useAt(text: string, at: number, length: number): NameUse {
  let before = text.slice(0, at);
  const tagged = before.endsWith("@");
  if (tagged) before = before.slice(0, -1);
  const after = text.slice(at + length);
  const preceding = words(before);
  const atOpening = preceding.every((w) => OPENERS.has(w));
  if (!hasWord(after)) {
    // The name closes the message: alone, after an opening, after a comma, or after thanks/hi.
    const last = preceding.at(-1);
    if (atOpening || before.trimEnd().endsWith(",") || (last !== undefined && CLOSING_OPENERS.has(last)))
      return "address";
    return "reference";
  }
  if (atOpening) {
    if (after[0] === "'") return "reference";
    if (after[0] !== " ") return "address";
    // "parley is good", but "hey parley is this right?" and "@parley is this right?" (an opener or the @ made it
    // an address).
    if (preceding.length > 0 || tagged) return "address";
    const [next, then] = words(after);
    if (next === undefined || ABOUT_VERBS.has(next)) return "reference";
    if (MODALS.has(next)) return then !== undefined && ASKED.has(then) ? "address" : "reference";
    return "address";
  }
  // A vocative set off by commas: "sure, parley, can you …", "what now, parley?".
  if (before.trimEnd().endsWith(",") && /^\s*[,!?.;:]/u.test(after)) return "address";
  return "reference";
}

/** How `text` uses `name` (both normalized): "address" if any occurrence addresses them, null if it is absent. */
export function nameUse(text: string, name: string): NameUse | null {
  if (name.length === 0) return null;
  let use: NameUse | null = null;
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const runsInto =
      (isWordChar(name[0]) && isWordChar(text[at - 1])) ||
      (isWordChar(name[name.length - 1]) && isWordChar(text[at + name.length]));
    if (runsInto) continue;
    if (useAt(text, at, name.length) === "address") return "address";
    use = "reference";
  }
  return use;
}
