/**
 * @module
 * Just enough PNG for the local stack: the fakes make pictures to paste (a solid colour, or two colours in halves),
 * and the local model reads a picture's pixels back (8-bit greyscale, RGB or RGBA, not interlaced: what the
 * fakes and most screenshots are) to tell its dominant colour. node:zlib does the compression.
 */
import { crc32, deflateSync, inflateSync } from "node:zlib";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 4: 2, 6: 4 };

export type Rgb = readonly [number, number, number];

/** A PNG of `width`×`height` pixels: `top` everywhere, or `top` above and `bottom` below the middle. */
export function encodePng(width: number, height: number, top: Rgb, bottom: Rgb = top): Buffer {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const colour = y < height / 2 ? top : bottom;
    for (let x = 0; x < width; x++) rgb.set(colour, (y * width + x) * 3);
  }
  return encodeRgbPng(width, height, rgb);
}

/** A PNG of the given pixels (RGB, row by row), unfiltered. */
export function encodeRgbPng(width: number, height: number, rgb: Uint8Array): Buffer {
  return encodePixels(width, height, rgb, 3);
}

/** A PNG of the given pixels with their alpha (RGBA, row by row), unfiltered: a transparent icon. */
export function encodeRgbaPng(width: number, height: number, rgba: Uint8Array): Buffer {
  return encodePixels(width, height, rgba, 4);
}

function encodePixels(width: number, height: number, pixels: Uint8Array, channels: 3 | 4): Buffer {
  const row = 1 + width * channels;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++)
    raw.set(pixels.subarray(y * width * channels, (y + 1) * width * channels), y * row + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  // Bit depth 8; colour type 2 (RGB) or 6 (RGBA).
  header.set([8, channels === 4 ? 6 : 2, 0, 0, 0], 8);
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/** The RGB of every pixel, row by row; null for a PNG this reader does not take. */
export function decodePngPixels(png: Buffer): { width: number; height: number; rgb: Uint8Array } | null {
  if (!png.subarray(0, 8).equals(SIGNATURE)) return null;
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (at + 8 <= png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString("ascii", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      channels = CHANNELS[data[9]!] ?? 0;
      if (data[8] !== 8 || data[12] !== 0 || channels === 0) return null;
    }
    if (type === "IDAT") idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++)
    unfilter(
      raw,
      y * (stride + 1),
      pixels,
      y * stride,
      stride,
      channels,
      y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : null,
    );
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    const p = pixels.subarray(i * channels, i * channels + channels);
    rgb.set(channels < 3 ? [p[0]!, p[0]!, p[0]!] : [p[0]!, p[1]!, p[2]!], i * 3);
  }
  return { width, height, rgb };
}

/** Undoes one row's filter (None, Sub, Up, Average, Paeth) into `out`. */
function unfilter(
  raw: Buffer,
  from: number,
  out: Buffer,
  to: number,
  stride: number,
  bpp: number,
  above: Buffer | null,
): void {
  const filter = raw[from]!;
  for (let x = 0; x < stride; x++) {
    const value = raw[from + 1 + x]!;
    const a = x >= bpp ? out[to + x - bpp]! : 0;
    const b = above ? above[x]! : 0;
    const c = above && x >= bpp ? above[x - bpp]! : 0;
    const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter] ?? 0;
    out[to + x] = (value + predictor) & 0xff;
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
