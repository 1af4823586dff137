/**
 * @module
 * The TypeScript tools bundled into the Worker: add a file under ./custom/ (one `defineTool`, docs/tools.md) and
 * list it here. Which tenants may use each is the TOOLS setting's business, like every other tool.
 */
import { timeInZone } from "./custom/time-in-zone.ts";
import type { Tool } from "./tool.ts";

export const TYPESCRIPT_TOOLS: readonly Tool[] = [timeInZone];
