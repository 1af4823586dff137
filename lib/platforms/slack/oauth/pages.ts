/**
 * @module
 * The small pages a person sees at the end of an install: what happened, and what to do next.
 */

const STYLE = "font-family:system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;line-height:1.5";

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta ` +
    `charset="utf-8"><title>${escapeHtml(title)}</title></head><body ` +
    `style="${STYLE}"><h1>${escapeHtml(title)}</h1>${body}</body></html>`
  );
}

export function installedPage(botName: string, workspace: string): string {
  return page(
    `${botName} is installed`,
    `<p>${escapeHtml(botName)} can now take part in ${escapeHtml(workspace)}.</p>` +
      `<p>Next: invite it to a channel (<code>/invite @${escapeHtml(botName)}</code>) and mention it, or write to ` +
      `it directly.</p>`,
  );
}

export function installFailedPage(reason: string): string {
  return page(
    "The install did not finish",
    `<p>${escapeHtml(reason)}</p><p>Start again from the install link; if it keeps failing, ask the app's owner.</p>`,
  );
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
