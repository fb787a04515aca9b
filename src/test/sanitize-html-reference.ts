import sanitize from 'sanitize-html';
import { safeHref } from '../content/html.ts';

/**
 * The sanitize-html configuration src/content/html.ts replaced (issue 13.1: quadratic on
 * unclosed tags), kept as the reference its property test and `npm run bench:html`
 * compare against. sanitize-html is a devDependency only.
 */
const OPTIONS: sanitize.IOptions = {
  allowedTags: ['a', 'br'],
  allowedAttributes: { a: ['href', 'rel', 'target'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'xmp', 'noscript', 'template', 'title', 'noembed', 'noframes'],
  transformTags: {
    a: (_tagName, attribs) => {
      const href = safeHref(attribs.href);
      const kept: sanitize.Attributes = href === undefined ? {} : { href, rel: 'nofollow noopener noreferrer', target: '_blank' };
      return { tagName: 'a', attribs: kept };
    },
  },
  exclusiveFilter: (frame) => (frame.tag === 'a' && !frame.attribs.href ? 'excludeTag' : false),
};

/** The sanitised markup as the replaced implementation wrote it. */
export function referenceSanitizeHtml(html: string): string {
  return sanitize(html, OPTIONS);
}
