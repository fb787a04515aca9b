import sanitize from 'sanitize-html';

/** Link schemes a message may carry (docs/behaviour.md §5). */
const LINK_SCHEMES = ['http:', 'https:', 'mailto:'];

/** Attributes every surviving link gets, whatever the author wrote. */
const LINK_ATTRIBUTES = { rel: 'nofollow noopener noreferrer', target: '_blank' };

/**
 * The href a browser would follow, when it is an http, https or mailto URL;
 * otherwise undefined. The value arrives entity-decoded from the parser; like a
 * browser we drop surrounding whitespace/control characters and tabs/newlines
 * anywhere, so `java&#x0A;script:` or ` JavaScript:` are judged (and refused)
 * by the scheme the browser would actually see.
 */
export function safeHref(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what browsers strip
  const href = raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined; // relative, protocol-relative or unparsable: no scheme we allow
  }
  return LINK_SCHEMES.includes(url.protocol) ? href : undefined;
}

const OPTIONS: sanitize.IOptions = {
  allowedTags: ['a', 'br'],
  allowedAttributes: { a: ['href', 'rel', 'target'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Elements whose content is code or never-rendered text: dropped with the tag.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'xmp', 'noscript', 'template', 'title', 'noembed', 'noframes'],
  transformTags: {
    a: (_tagName, attribs) => {
      const href = safeHref(attribs.href);
      return { tagName: 'a', attribs: href === undefined ? {} : { href, ...LINK_ATTRIBUTES } };
    },
  },
  // A link left without an href loses its tags and keeps its text. (Renaming it
  // to a discarded tag in transformTags instead trips a sanitize-html bug that
  // emits a stray closing tag after the next sibling.)
  exclusiveFilter: (frame) => (frame.tag === 'a' && !frame.attribs.href ? 'excludeTag' : false),
};

/** Decodes the only entities sanitize-html emits (it escapes &, <, > and, in attributes, "). */
function decodeEmittedEntities(html: string): string {
  return html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

/**
 * Message HTML sanitising (docs/behaviour.md §5): only `a` and `br` survive, links only
 * with http/https/mailto and always rel="nofollow noopener noreferrer"
 * target="_blank"; script/style content is dropped, other tags are removed and
 * their text kept. `text` is the plain-text rendering of the sanitised HTML:
 * `<br>` becomes a newline, entities are decoded.
 */
export function sanitizeHtml(html: string): { html: string; text: string } {
  const clean = sanitize(html, OPTIONS);
  // The sanitised markup holds only <br />, <a ...> and </a>, with every < and >
  // inside attribute values and text escaped, so these patterns are exact.
  const text = decodeEmittedEntities(clean.replace(/<br\s*\/?>/g, '\n').replace(/<\/?a(?:\s[^>]*)?>/g, ''));
  return { html: clean, text };
}
