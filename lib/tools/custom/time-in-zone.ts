/**
 * @module
 * An example of a deployer's TypeScript tool (docs/tools.md): the current time in a time zone. One file, one
 * `defineTool`, listed in ../registry.ts; its zod schema checks the model's arguments and tells the model their shape.
 */
import * as z from "../../zod.ts";
import { defineTool, ToolRefusal } from "../tool.ts";

export const timeInZone = defineTool({
  name: "time_in_zone",
  description: "The current date and time in a time zone (an IANA name such as Europe/Paris or America/New_York).",
  args: z.object({ zone: z.string().check(z.minLength(1), z.maxLength(64)) }),
  async run({ zone }, ctx) {
    try {
      const format = new Intl.DateTimeFormat("en-GB", { timeZone: zone, dateStyle: "full", timeStyle: "short" });
      return `${format.format(new Date(ctx.services.now()))} (${zone})`;
    } catch {
      throw new ToolRefusal(`unknown time zone: ${zone}`);
    }
  },
});
