/**
 * @module
 * What an image's bytes say it is: its format and dimensions, and whether it moves. Read from the headers
 * only, never decoded: the type a platform reports is the sender's word, and the model API refuses a file whose
 * bytes are not the type sent with them (and animated GIFs). null: not one of the formats the model reads.
 */

export interface ImageInfo {
  type: "image/png" | "image/jpeg" | "image/webp" | "image/gif";
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

export function imageInfo(bytes: Uint8Array): ImageInfo | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));
  if (bytes.length >= 24 && PNG_SIGNATURE.every((b, i) => bytes[i] === b) && ascii(12, 4) === "IHDR") {
    return sized("image/png", view.getUint32(16), view.getUint32(20));
  }
  if (bytes.length >= 10 && (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a")) {
    return gifFrames(bytes) === 1 ? sized("image/gif", view.getUint16(6, true), view.getUint16(8, true)) : null;
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpeg(bytes, view);
  if (bytes.length >= 30 && ascii(0, 4) === "RIFF" && ascii(8, 4) === "WEBP") return webp(bytes, view, ascii(12, 4));
  return null;
}

function sized(type: ImageInfo["type"], width: number, height: number): ImageInfo | null {
  return width > 0 && height > 0 ? { type, width, height } : null;
}

/** The start-of-frame marker holds the dimensions; every segment before it says its own length. */
function jpeg(bytes: Uint8Array, view: DataView): ImageInfo | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (JPEG_SOF.has(marker)) return sized("image/jpeg", view.getUint16(at + 7), view.getUint16(at + 5));
    at += 2 + view.getUint16(at + 2);
  }
  return null;
}

/** Lossy (`VP8 `), lossless (`VP8L`) or extended (`VP8X`, whose animation flag makes it refused). */
function webp(bytes: Uint8Array, view: DataView, chunk: string): ImageInfo | null {
  if (chunk === "VP8 ")
    return sized("image/webp", view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff);
  if (chunk === "VP8L") {
    const bits = view.getUint32(21, true);
    return sized("image/webp", (bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
  }
  if (chunk === "VP8X") {
    if (bytes[20]! & 0x02) return null;
    const u24 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
    return sized("image/webp", u24(24) + 1, u24(27) + 1);
  }
  return null;
}

/** How many frames a GIF holds (its image descriptors), walking its blocks; 0 when it is cut short. */
function gifFrames(bytes: Uint8Array): number {
  const packed = bytes[10] ?? 0;
  let at = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  let frames = 0;
  const skipSubBlocks = () => {
    while (at < bytes.length && bytes[at] !== 0) at += bytes[at]! + 1;
    at++;
  };
  while (at < bytes.length) {
    const block = bytes[at]!;
    if (block === 0x3b) return frames;
    if (block === 0x21) {
      at += 2;
      skipSubBlocks();
    } else if (block === 0x2c) {
      frames++;
      const local = bytes[at + 9] ?? 0;
      at += 10 + (local & 0x80 ? 3 * 2 ** ((local & 0x07) + 1) : 0) + 1;
      skipSubBlocks();
    } else {
      return 0;
    }
  }
  return 0;
}
