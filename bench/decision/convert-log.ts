/**
 * @module
 * One log of the irc-disentanglement corpus in the benches' format (./README.md): its raw lines (`[hh:mm] <nick>
 * text`; any other line, a join or a `/me`, is a system line) numbered from 0, and its reply links from the
 * annotation lines `parent child -`. The text is kept as it is.
 */

const CHAT_LINE = /^\[(\d\d:\d\d)\] <([^>]+)> (.*)$/;
const LINK = /^(\d+) (\d+)\b/;

/** One JSON line: `source` names the log (its file name), `split` the folder it came from. */
export function convertLog(source: string, split: string, raw: string, annotation: string): string {
  const messages = raw
    .split("\n")
    .slice(0, raw.endsWith("\n") ? -1 : undefined)
    .map((line, i) => {
      const chat = CHAT_LINE.exec(line);
      return chat ? { i, time: chat[1], author: chat[2], text: chat[3] } : { i, system: line };
    });
  const links = annotation.split("\n").flatMap((line) => {
    const link = LINK.exec(line);
    return link ? [[Number(link[1]), Number(link[2])]] : [];
  });
  return JSON.stringify({ source, split, messages, links });
}
