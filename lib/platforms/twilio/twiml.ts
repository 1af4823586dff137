/**
 * @module
 * The TwiML the webhook answers with. Empty means "nothing to send now": the answer comes later through the
 * Messages API. Any other content type would be sent to the person as a text (text/plain) or be an error.
 */

export const TWIML_CONTENT_TYPE = "text/xml";
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

export const EMPTY_TWIML = `${XML_DECLARATION}<Response></Response>`;

/** A TwiML answer that makes Twilio send `text` back to the sender at once. */
export function messageTwiml(text: string): string {
  return `${XML_DECLARATION}<Response><Message>${escapeXml(text)}</Message></Response>`;
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
