/**
 * @module
 * What the local model sees in a picture: its format and size from its headers (lib/files/image-info.ts), and for
 * a PNG the dominant colour computed from its pixels (dev/files/png.ts), named, so that tests and the simulator
 * can tell that the picture itself reached the model. Deterministic: the same picture is described alike.
 */
import { imageInfo } from "../../lib/files/image-info.ts";
import { imageTokens } from "../../lib/files/image-tokens.ts";
import { decodePngPixels, type Rgb } from "../files/png.ts";

const COLOURS: readonly (readonly [string, Rgb])[] = [
  ["black", [0, 0, 0]],
  ["white", [255, 255, 255]],
  ["grey", [128, 128, 128]],
  ["red", [220, 30, 30]],
  ["green", [30, 170, 60]],
  ["blue", [30, 60, 220]],
  ["yellow", [240, 220, 40]],
  ["orange", [250, 140, 20]],
  ["purple", [130, 40, 170]],
  ["cyan", [40, 200, 220]],
];
const FORMATS: Readonly<Record<string, string>> = {
  "image/png": "PNG",
  "image/jpeg": "JPEG",
  "image/webp": "WebP",
  "image/gif": "GIF",
};

/** `a PNG picture, 64×48, mostly red (#dc1e1e)`, or what the data URL is not. */
export function describeImage(dataUrl: string): string {
  const match = /^data:([\w/.+-]+);base64,(.*)$/s.exec(dataUrl);
  if (!match) return "a picture I was given by address, not by its bytes";
  const bytes = Buffer.from(match[2]!, "base64");
  const info = imageInfo(bytes);
  if (!info || info.type !== match[1]) return `something that is not the ${match[1]} picture it claims to be`;
  const pixels = info.type === "image/png" ? decodePngPixels(bytes) : null;
  const colour = pixels ? `, mostly ${dominantColour(pixels.rgb)}` : "";
  return `a ${FORMATS[info.type]} picture, ${info.width}×${info.height}${colour}`;
}

/** The most common colour, by buckets of 32 levels a channel, named after the nearest of a few and given in hex. */
function dominantColour(rgb: Uint8Array): string {
  const counts = new Map<number, number>();
  for (let i = 0; i < rgb.length; i += 3) {
    const bucket = ((rgb[i]! >> 5) << 6) | ((rgb[i + 1]! >> 5) << 3) | (rgb[i + 2]! >> 5);
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  const [bucket] = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]!;
  const centre: Rgb = [((bucket >> 6) << 5) + 16, (((bucket >> 3) & 7) << 5) + 16, ((bucket & 7) << 5) + 16];
  const [name] = [...COLOURS].sort((a, b) => distance(a[1], centre) - distance(b[1], centre))[0]!;
  return `${name} (#${centre.map((c) => c.toString(16).padStart(2, "0")).join("")})`;
}

function distance(a: Rgb, b: Rgb): number {
  return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;
}

/** What a picture costs, as OpenAI counts it into `prompt_tokens` (0 for one that is not a picture's data URL). */
export function pictureTokens(dataUrl: string): number {
  const base64 = /^data:[\w/.+-]+;base64,(.*)$/s.exec(dataUrl)?.[1];
  const info = base64 ? imageInfo(Buffer.from(base64, "base64")) : null;
  return info ? imageTokens(info.width, info.height) : 0;
}
