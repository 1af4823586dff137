/**
 * @module
 * Hostile request bodies, generated from one valid payload with a seeded random source (the same corpus every run):
 * malformed, truncated, mis-encoded, random bytes, pathological JSON and forms, and bodies over 1 MB.
 * `malformed` marks the bodies that cannot be a valid delivery whatever their signature, so the corpus may sign
 * them correctly and still expect nothing to be written.
 */
import { bytesToBase64 } from "../../lib/base64.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);

export interface HostileBody {
  label: string;
  bytes: Uint8Array;
  malformed: boolean;
}

const encoder = new TextEncoder();
const OVERSIZED_BYTES = 1_100_000;

const text = (label: string, body: string, malformed: boolean): HostileBody => ({
  label,
  bytes: encoder.encode(body),
  malformed,
});

function utf16(body: string, littleEndian: boolean, bom: boolean): Uint8Array {
  const out = new Uint8Array((body.length + (bom ? 1 : 0)) * 2);
  const view = new DataView(out.buffer);
  const units = bom ? `\uFEFF${body}` : body;
  for (let i = 0; i < units.length; i++) view.setUint16(i * 2, units.charCodeAt(i), littleEndian);
  return out;
}

function latin1(body: string): Uint8Array {
  return Uint8Array.from(body, (ch) => ch.charCodeAt(0) & 0xff);
}

/** Invalid UTF-8 sequences: overlong slash, lone continuation, truncated 3-byte, CESU surrogate, 0xFF. */
const BAD_UTF8: number[][] = [[0xc0, 0xaf], [0x80], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xff, 0xfe]];

function spliced(valid: Uint8Array, at: number, insert: number[]): Uint8Array {
  return Uint8Array.from([...valid.slice(0, at), ...insert, ...valid.slice(at)]);
}

const JSON_SHAPES: [string, string][] = [
  ["empty", ""],
  ["whitespace", " \n\t "],
  ["null", "null"],
  ["true", "true"],
  ["zero", "0"],
  ["string", '"event_callback"'],
  ["empty array", "[]"],
  ["empty object", "{}"],
  ["open brace", "{"],
  ["close brace", "}"],
  ["NaN", "NaN"],
  ["huge number", "1e400"],
  ["type null", '{"type":null}'],
  ["type number", '{"type":2.5e308}'],
  ["type object", '{"type":{"type":"event_callback"}}'],
  ["event_callback without event", '{"type":"event_callback","team_id":"T1"}'],
  ["event is a string", '{"type":"event_callback","team_id":"T1","event":"message"}'],
  ["event without fields", '{"type":"event_callback","team_id":"T1","event":{"type":"message"}}'],
  ["interaction without data", '{"type":2,"id":"1","application_id":"1","token":"t"}'],
  ["interaction of unknown type", '{"type":99,"id":"1","token":"t"}'],
  ["job without key", '{"v":1,"trigger":{"id":"x"}}'],
  ["job of a future version", '{"v":99}'],
  ["failure callback with junk base64", '{"sourceBody":"!!!not base64!!!"}'],
  ["failure callback with a non-job", `{"sourceBody":"${bytesToBase64(utf8('{"v":1}'))}"}`],
  [
    "failure callback with non-JSON",
    `{"sourceBody":"${bytesToBase64(Uint8Array.of(0xff, 0xfe, ...utf8(" garbage")))}"}`,
  ],
  ["__proto__ key", '{"__proto__":{"polluted":true},"type":"event_callback"}'],
  ["constructor key", '{"constructor":{"prototype":{"polluted":true}}}'],
  ["NUL in a string", '{"type":"\\u0000"}'],
  ["lone surrogate escape", '{"type":"\\ud800"}'],
  ["duplicate keys", '{"type":"a","type":"b","type":1}'],
  ["trailing comma", '{"type":"event_callback",}'],
  ["single quotes", "{'type':'event_callback'}"],
  ["comment", '/* x */ {"type":1}'],
];

function pathological(): HostileBody[] {
  return [
    text("10,000 nested arrays", "[".repeat(10_000) + "]".repeat(10_000), true),
    text("10,000 nested objects, unclosed", '{"a":'.repeat(10_000), true),
    text("50,000-element array", `[${"0,".repeat(50_000)}0]`, true),
    text("200 KB string value", `{"type":"${"a".repeat(200_000)}"}`, true),
  ];
}

const FORM_SHAPES: [string, string][] = [
  ["empty", ""],
  ["equals sign", "="],
  ["ampersands", "&&&&"],
  ["bad percent escape", "Body=%zz&From=%"],
  ["truncated percent escape", "Body=%E0%A4%A"],
  ["only a body", "Body=hello"],
  ["empty required fields", "MessageSid=&AccountSid=&From=&To=&Body="],
  ["pipe in the sender", "MessageSid=SM1&AccountSid=AC1&From=a%7Cb&To=%2B1&Body=x"],
  ["newline in the sender", "MessageSid=SM1&AccountSid=AC1&From=a%0Ab&To=%2B1&Body=x"],
  ["sid of the wrong shape", "MessageSid=sm-1&AccountSid=AC1&From=%2B1&To=%2B2&Body=x"],
  ["JSON instead of a form", '{"Body":"hi"}'],
  ["ssl_check", "ssl_check=1&token=x"],
  ["10,000 parameters", Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join("&")],
];

/**
 * The corpus of bodies for one route. `valid` is a well-formed payload for the route (never sent as is);
 * `form` says whether the route reads forms (Twilio) rather than JSON. `random` drives truncation points and bytes.
 */
export function hostileBodies(
  valid: string,
  form: boolean,
  random: () => number,
  counts = { truncations: 40, randoms: 25 },
): HostileBody[] {
  const validBytes = encoder.encode(valid);
  const bodies: HostileBody[] = (form ? FORM_SHAPES : JSON_SHAPES).map(([label, body]) =>
    // A form that happens to carry every required field is not guaranteed invalid: those are never signed correctly.
    text(label, body, !form || !/MessageSid=SM/.test(body)),
  );
  if (!form) bodies.push(...pathological());
  for (let i = 0; i < counts.truncations; i++) {
    const cut = 1 + Math.floor(random() * (validBytes.length - 1));
    // A JSON object cut anywhere before its closing brace is never valid; a cut form may still be.
    bodies.push({ label: `truncated at ${cut}`, bytes: validBytes.slice(0, cut), malformed: !form });
  }
  for (let i = 0; i < counts.randoms; i++) {
    const length = 1 + Math.floor(random() * 3000);
    bodies.push({
      label: `${length} random bytes`,
      bytes: Uint8Array.from({ length }, () => Math.floor(random() * 256)),
      malformed: !form,
    });
  }
  BAD_UTF8.forEach((seq, i) => {
    const at = Math.floor(random() * validBytes.length);
    bodies.push({ label: `invalid UTF-8 #${i} at ${at}`, bytes: spliced(validBytes, at, seq), malformed: false });
  });
  bodies.push(
    { label: "UTF-16LE with BOM", bytes: utf16(valid, true, true), malformed: false },
    { label: "UTF-16BE", bytes: utf16(valid, false, false), malformed: false },
    { label: "Latin-1", bytes: latin1(valid), malformed: false },
    { label: "UTF-8 BOM", bytes: Uint8Array.from([0xef, 0xbb, 0xbf, ...validBytes]), malformed: false },
    { label: "over 1 MB of padding", bytes: encoder.encode(valid + " ".repeat(OVERSIZED_BYTES)), malformed: false },
    {
      label: "over 1 MB of random bytes",
      bytes: Uint8Array.from({ length: OVERSIZED_BYTES }, () => Math.floor(random() * 256)),
      malformed: false,
    },
  );
  return bodies;
}
