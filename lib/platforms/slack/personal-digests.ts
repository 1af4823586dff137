/**
 * @module
 * A person's own digest on Slack (lib/digests/capability.ts): their public channels from `users.conversations`
 * (`user`, `types=public_channel`: Slack lists the channels that person is a member of now, never a private channel,
 * a DM or a group DM; `channels:read`), page by page; and their DM with the bot from `conversations.open`
 * (`im:write`), which answers the same DM every time. A channel the bot is not in is listed too: its read is
 * refused (`not_in_channel`), and its section is left out.
 */
import * as z from "../../zod.ts";
import type { PersonalDigestCapability } from "../../digests/capability.ts";
import type { ReplyContext } from "../adapter.ts";
import { callSlack } from "./api.ts";
import type { SlackSettings } from "./settings.ts";
import type { SlackTarget } from "./target.ts";

/** Slack's largest page is 1,000; a person in more public channels than a few pages is cut at the core's cap. */
const PAGE_LIMIT = 200;
const MAX_PAGES = 5;

const listedSchema = z.looseObject({
  channels: z.array(
    z.looseObject({ id: z.string(), name: z.optional(z.string()), is_private: z.optional(z.boolean()) }),
  ),
  response_metadata: z.optional(z.looseObject({ next_cursor: z.optional(z.string()) })),
});
const openedSchema = z.looseObject({ channel: z.looseObject({ id: z.string() }) });

const callArgs = async (ctx: ReplyContext<SlackSettings>) => ({
  apiBaseUrl: ctx.config.SLACK_API_BASE_URL,
  botToken: await ctx.token(),
  fetch: ctx.fetch,
});

export const slackPersonalDigests: PersonalDigestCapability<SlackTarget, ReplyContext<SlackSettings>> = {
  async places(ctx, { person }) {
    const args = await callArgs(ctx);
    const places = [];
    let cursor = "";
    for (let page = 0; page < MAX_PAGES; page++) {
      const listed = listedSchema.parse(
        await callSlack(
          args,
          "users.conversations",
          {
            user: person,
            types: "public_channel",
            exclude_archived: true,
            limit: PAGE_LIMIT,
            ...(cursor ? { cursor } : {}),
          },
          "form",
        ),
      );
      // Public channels only, whatever Slack lists: a private one never reaches a person's digest.
      for (const c of listed.channels)
        if (c.is_private !== true && c.id.startsWith("C"))
          places.push({ channel: c.id, name: c.name ?? c.id, target: { platform: "slack" as const, channel: c.id } });
      cursor = listed.response_metadata?.next_cursor ?? "";
      if (!cursor) break;
    }
    return places;
  },
  async dm(ctx, { person }) {
    const opened = openedSchema.parse(await callSlack(await callArgs(ctx), "conversations.open", { users: person }));
    return { channel: opened.channel.id, target: { platform: "slack", channel: opened.channel.id } };
  },
};
