import { itemAt } from '../arrays.ts';
import { toConversation } from '../conversations/presenter.ts';
import { MATCH_END, MATCH_START, type SearchRow } from './repository.ts';
import type { SearchHit, Snippet } from './schema.ts';

/**
 * A conversation found; with `headlines` (a search with a query: the best matching message's ts_headline by
 * conversation id) its snippet too, null when only its contact matched.
 */
export function toSearchHit(row: SearchRow, headlines: Map<string, string> | undefined): SearchHit {
  const conversation = toConversation(row);
  if (!headlines) return conversation;
  const headline = headlines.get(row.id);
  return { ...conversation, snippet: headline === undefined ? null : snippetOf(headline) };
}

/** ts_headline's text with its marks taken out, and the marked ranges as [start, end) in code points. */
export function snippetOf(headline: string): Snippet {
  const matches: [number, number][] = [];
  let text = '';
  let length = 0;
  let start = -1;
  for (const char of headline) {
    if (char === MATCH_START) start = length;
    else if (char === MATCH_END) {
      if (start >= 0 && length > start) matches.push([start, length]);
      start = -1;
    } else {
      text += char;
      length++;
    }
  }
  return { text: text.trim() === text ? text : trimmed(text, matches), matches };
}

/** `text` without its surrounding white space, the ranges moved along. */
function trimmed(text: string, matches: [number, number][]): string {
  const chars = [...text];
  let lead = 0;
  while (lead < chars.length && /\s/.test(itemAt(chars, lead))) lead++;
  let end = chars.length;
  while (end > lead && /\s/.test(itemAt(chars, end - 1))) end--;
  for (const match of matches) {
    match[0] = Math.min(Math.max(match[0] - lead, 0), end - lead);
    match[1] = Math.min(Math.max(match[1] - lead, 0), end - lead);
  }
  return chars.slice(lead, end).join('');
}
