/**
 * @module
 * zod/mini with zod's English messages. zod/mini loads no locale, so without this a failed check reads only "Invalid
 * input"; classic zod loaded English itself but costs ~20 KiB gzipped more in the Worker (`npm run bench:bundle`).
 * Every schema imports zod from here, so no parse can run before the messages are set.
 */
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());

export * from "zod/mini";
