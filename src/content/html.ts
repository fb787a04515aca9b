import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/**
 * The longest HTML a message or bot trigger may carry, in characters (docs/behaviour.md §9): with the
 * linear sanitiser below it bounds a request's sanitising to about a millisecond (docs/benchmarks.md).
 */
export const MAX_HTML_LENGTH = 65_536;

/** Link schemes a message may carry (docs/behaviour.md §5). */
const LINK_SCHEMES = ['http:', 'https:', 'mailto:'];

/** What every surviving link gets after its href, whatever the author wrote. */
const LINK_ATTRIBUTES = ' rel="nofollow noopener noreferrer" target="_blank"';

/** Elements whose content is code or never-rendered text: dropped with the tag. */
const NON_TEXT_TAGS = new Set(['script', 'style', 'textarea', 'option', 'xmp', 'noscript', 'template', 'title', 'noembed', 'noframes']);

/** HTML's void elements: they never hold content, so they never stay open (a closing `</br>` is a `<br>`, as in browsers). */
const VOID_TAGS = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'image',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/**
 * Elements an opening tag closes when one of them is the innermost open element, as
 * htmlparser2's Parser does (a new `<p>` ends the open `<p>`, `<li>` the open `<li>`, …).
 */
const P = ['p'];
const FORM = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
const IMPLIED_CLOSES = new Map<string, ReadonlySet<string>>(
  Object.entries({
    tr: ['tr', 'th', 'td'],
    th: ['th'],
    td: ['thead', 'th', 'td'],
    body: ['head', 'link', 'script'],
    li: ['li'],
    option: ['option'],
    optgroup: ['optgroup', 'option'],
    dd: ['dd', 'dt'],
    dt: ['dd', 'dt'],
    rt: ['rt', 'rp'],
    rp: ['rt', 'rp'],
    tbody: ['thead', 'tbody'],
    tfoot: ['thead', 'tbody'],
    select: FORM,
    input: FORM,
    output: FORM,
    button: FORM,
    datalist: FORM,
    textarea: FORM,
    ...Object.fromEntries(
      [
        'p',
        'h1',
        'h2',
        'h3',
        'h4',
        'h5',
        'h6',
        'address',
        'article',
        'aside',
        'blockquote',
        'details',
        'div',
        'dl',
        'fieldset',
        'figcaption',
        'figure',
        'footer',
        'form',
        'header',
        'hr',
        'main',
        'nav',
        'ol',
        'pre',
        'section',
        'table',
        'ul',
      ].map((tag) => [tag, P]),
    ),
  }).map(([tag, closes]) => [tag, new Set(closes)]),
);

/**
 * The href a browser would follow, when it is an http, https or mailto URL;
 * otherwise undefined. The value arrives entity-decoded from the parser; like a
 * browser we drop surrounding whitespace/control characters and tabs/newlines
 * anywhere, so `java&#x0A;script:` or ` JavaScript:` are judged (and refused)
 * by the scheme the browser would actually see.
 */
export function safeHref(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  // Trimmed by hand: a regular expression for trailing whitespace retries from every space of a long inner run (quadratic).
  let start = 0;
  let end = raw.length;
  while (start < end && raw.charCodeAt(start) <= 0x20) start++;
  while (end > start && raw.charCodeAt(end - 1) <= 0x20) end--;
  const href = raw.slice(start, end).replace(/[\t\n\r]/g, '');
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined; // relative, protocol-relative or unparsable: no scheme we allow
  }
  return LINK_SCHEMES.includes(url.protocol) ? href : undefined;
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (value: string) => escapeText(value).replace(/"/g, '&quot;');

/**
 * One sanitising pass over htmlparser2's tokenizer (its Parser keeps its open-element
 * stack with `unshift` and scans it for every closing tag: quadratic on `<b>`×N, which
 * froze the event loop for seconds). Here every step is amortised O(1): the stack is
 * pushed and popped at its end, and a closing tag whose name is not open (per-name
 * counts) is ignored without a scan, so each element is pushed and popped at most once.
 *
 * The rules are those of the sanitize-html configuration this replaced (and the
 * property test in html.test.ts compares the two): tag and attribute names are
 * case-insensitive, the first `href` of a link counts, some opening tags close the
 * innermost element (IMPLIED_CLOSES), a closing tag closes every element opened after
 * its match, and whatever is open at the end is closed. One difference: `<x/>` inside
 * `<svg>` or `<math>` is an opening tag here, not an empty element; either way only
 * text, `<br />` and balanced links come out.
 */
class Sanitiser implements TokenizerCallbacks {
  readonly #source: string;
  readonly #html: string[] = [];
  readonly #text: string[] = [];
  /** The open elements, innermost last; `link` when the element wrote an `<a …>` that needs its `</a>`. */
  readonly #stack: { name: string; link: boolean }[] = [];
  readonly #openByName = new Map<string, number>();
  /** Index in #stack of the outermost open non-text element (everything inside is dropped); -1 for none. */
  #skipFrom = -1;
  // The tag being read: its name, and for a link the first href and the attribute under way.
  #tagName = '';
  #href: string | undefined;
  #attributeName = '';
  #attributeValue = '';

  constructor(source: string) {
    this.#source = source;
  }

  result(): { html: string; text: string } {
    return { html: this.#html.join(''), text: this.#text.join('') };
  }

  #addText(text: string): void {
    if (this.#skipFrom !== -1) return;
    this.#html.push(escapeText(text));
    this.#text.push(text);
  }

  #addBreak(): void {
    if (this.#skipFrom !== -1) return;
    this.#html.push('<br />');
    this.#text.push('\n');
  }

  #open(name: string, href: string | undefined): void {
    const closes = IMPLIED_CLOSES.get(name);
    for (let innermost = this.#stack.at(-1); closes && innermost && closes.has(innermost.name); innermost = this.#stack.at(-1)) this.#pop();
    if (name === 'br') return this.#addBreak();
    if (VOID_TAGS.has(name)) return;
    const link = this.#skipFrom === -1 && name === 'a' && (href = safeHref(href)) !== undefined;
    if (link) this.#html.push(`<a href="${escapeAttribute(href as string)}"${LINK_ATTRIBUTES}>`);
    if (this.#skipFrom === -1 && NON_TEXT_TAGS.has(name)) this.#skipFrom = this.#stack.length;
    this.#stack.push({ name, link });
    this.#openByName.set(name, (this.#openByName.get(name) ?? 0) + 1);
  }

  /** Closes the innermost open element. */
  #pop(): string {
    const { name, link } = this.#stack.pop() as { name: string; link: boolean };
    this.#openByName.set(name, (this.#openByName.get(name) as number) - 1);
    if (link) this.#html.push('</a>');
    if (this.#skipFrom === this.#stack.length) this.#skipFrom = -1;
    return name;
  }

  #slice(start: number, end: number): string {
    return this.#source.slice(start, end);
  }

  ontext(start: number, end: number): void {
    this.#addText(this.#slice(start, end));
  }

  ontextentity(codepoint: number): void {
    this.#addText(String.fromCodePoint(codepoint));
  }

  onopentagname(start: number, end: number): void {
    this.#tagName = this.#slice(start, end).toLowerCase();
    this.#href = undefined;
  }

  onattribname(start: number, end: number): void {
    this.#attributeName = this.#slice(start, end).toLowerCase();
    this.#attributeValue = '';
  }

  onattribdata(start: number, end: number): void {
    this.#attributeValue += this.#slice(start, end);
  }

  onattribentity(codepoint: number): void {
    this.#attributeValue += String.fromCodePoint(codepoint);
  }

  onattribend(): void {
    if (this.#tagName === 'a' && this.#attributeName === 'href' && this.#href === undefined) this.#href = this.#attributeValue;
    this.#attributeValue = '';
  }

  onopentagend(): void {
    this.#open(this.#tagName, this.#href);
  }

  onselfclosingtag(): void {
    this.#open(this.#tagName, this.#href);
  }

  onclosetag(start: number, end: number): void {
    const name = this.#slice(start, end).toLowerCase();
    if (name === 'br') return this.#addBreak();
    if (!this.#openByName.get(name)) return; // nothing of that name is open: a stray closing tag
    while (this.#pop() !== name);
  }

  onend(): void {
    while (this.#stack.length > 0) this.#pop();
  }

  // Comments, CDATA, doctypes and processing instructions are dropped.
  oncomment(): void {}
  oncdata(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
}

/**
 * Message HTML sanitising (docs/behaviour.md §5): only `a` and `br` survive, links only
 * with http/https/mailto and always rel="nofollow noopener noreferrer"
 * target="_blank"; the content of script, style and the like is dropped, other tags
 * are removed and their text kept. `text` is the plain-text rendering of the
 * sanitised HTML: `<br>` becomes a newline, entities are decoded. Linear in the
 * length of `html` (docs/benchmarks.md).
 */
export function sanitizeHtml(html: string): { html: string; text: string } {
  const sanitiser = new Sanitiser(html);
  const tokenizer = new Tokenizer({ decodeEntities: true }, sanitiser);
  tokenizer.write(html);
  tokenizer.end();
  return sanitiser.result();
}
