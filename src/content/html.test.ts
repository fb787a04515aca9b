import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_HTML_LENGTH, safeHref, sanitizeHtml } from './html.ts';
import { referenceSanitizeHtml } from '../test/sanitize-html-reference.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { conversationFactory } from '../test/conversations.ts';

const LINK_OPEN = /^<a href="([^"]*)" rel="nofollow noopener noreferrer" target="_blank">$/;

/**
 * What "nothing executable survives" means for the sanitised markup: every `<`
 * opens one of exactly three tag shapes (text `<` is always escaped), every href
 * is an http/https/mailto URL as a browser would read it, and no attribute other
 * than href/rel/target exists.
 */
function assertInert(input: string, html: string): void {
  const context = `input ${JSON.stringify(input)} gave ${JSON.stringify(html)}`;
  for (const tag of html.match(/<[^>]*>?/g) ?? []) {
    if (tag === '<br />' || tag === '</a>') continue;
    const link = LINK_OPEN.exec(tag);
    assert.ok(link, `unexpected tag ${tag}: ${context}`);
    const href = link[1]!
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    assert.ok(['http:', 'https:', 'mailto:'].includes(new URL(href).protocol), `href ${href}: ${context}`);
    assert.match(href, /^(https?|mailto):/i, context);
  }
  assert.doesNotMatch(html, /<script|<style|<svg|<math|<iframe|<img|<object|<embed/i, context);
  // Outside quoted attribute values (an href may legitimately contain " onclick=").
  const markup = html.replace(/"[^"]*"/g, '""');
  assert.doesNotMatch(markup, /<[^>]*\son[a-z]+\s*=/i, context);
  assert.doesNotMatch(markup, /<[^>]*(javascript|vbscript|data):/i, context);
  // Sanitising is stable: the output is already clean.
  assert.equal(sanitizeHtml(html).html, html, context);
}

// Known vectors, largely from the OWASP XSS filter evasion cheat sheet.
const XSS_CORPUS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>',
  '<script>document.write("<img src=x onerror=alert(1)>")</script>',
  '<<script>script>alert(1)<</script>/script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<script/xss src="https://xss.example/x.js"></script>',
  '<script\n>alert(1)</script\n>',
  '<style>body{background:url("javascript:alert(1)")}</style>',
  '<STYLE>@import "https://xss.example/xss.css";</STYLE>',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">',
  '<body onload=alert(1)>',
  '<div onmouseover="alert(1)">hover</div>',
  '<a href="https://ok.example" onclick="alert(1)" onmouseover=alert(2)>ok</a>',
  '<a href="https://ok.example"onclick=alert(1)>tight</a>',
  '<br onload=alert(1)>',
  '<br/onload=alert(1)>',
  '<a href="javascript:alert(1)">js</a>',
  '<a href="JaVaScRiPt:alert(1)">mixed case</a>',
  '<a href=" javascript:alert(1)">leading space</a>',
  '<a href="\u0001javascript:alert(1)">leading control</a>',
  '<a href="java\tscript:alert(1)">tab</a>',
  '<a href="java\nscript:alert(1)">newline</a>',
  '<a href="java&#x09;script:alert(1)">encoded tab</a>',
  '<a href="java&#x0A;script:alert(1)">encoded newline</a>',
  '<a href="java&#13;script:alert(1)">encoded cr</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">decimal entities</a>',
  '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">hex entities</a>',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">padded entities</a>',
  '<a href="javascript&colon;alert(1)">named colon</a>',
  '<a href="javas&Tab;cript:alert(1)">named tab</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<a href="DATA:text/html,<script>alert(1)</script>">data upper</a>',
  '<a href="vbscript:msgbox(1)">vbs</a>',
  '<a href="VBScript:msgbox(1)">vbs mixed</a>',
  '<a href="livescript:alert(1)">live</a>',
  '<a href="file:///etc/passwd">file</a>',
  '<a href="//xss.example/">protocol relative</a>',
  '<a href="/relative">relative</a>',
  '<a href="https:">bare scheme</a>',
  '<a href=javascript:alert(1)>unquoted</a>',
  "<a href='javascript:alert(1)'>single quoted</a>",
  '<a href=`javascript:alert(1)`>backticks</a>',
  '<a href="https://ok.example" href="javascript:alert(1)">duplicate href</a>',
  '<a href="https://ok.example/" style="position:fixed;top:0" class="x" id="y">extra attributes</a>',
  '<a href="https://ok.example/"" onclick="alert(1)">attribute breakout</a>',
  '<a href="https://ok.example/\\" onclick=alert(1)//">backslash breakout</a>',
  '<a title="a" onclick="alert(1)" title=">"><b>breakout title</b></a>',
  '<a href="https://ok.example/?q="><script>alert(1)</script>">quote in url</a>',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">svg link</text></a></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<svg><use href="data:image/svg+xml,<svg id=x xmlns=http://www.w3.org/2000/svg><script>alert(1)</script></svg>#x"/></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<math><a xlink:href="javascript:alert(1)">math link</a></math>',
  '<math href="javascript:alert(1)">CLICKME</math>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="data:text/html,<script>alert(1)</script>">',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<input onfocus=alert(1) autofocus>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<table background="javascript:alert(1)"></table>',
  '<div style="background-image:url(javascript:alert(1))">styled</div>',
  '<div style="width: expression(alert(1));">ie expression</div>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<textarea><script>alert(1)</script></textarea>',
  '<title><img src=x onerror=alert(1)></title>',
  '<xmp><script>alert(1)</script></xmp>',
  '<template><script>alert(1)</script></template>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<!--[if gte IE 4]><script>alert(1)</script><![endif]-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<?xml version="1.0"?><script>alert(1)</script>',
  '<!DOCTYPE html><script>alert(1)</script>',
  '<a href="https://ok.example/"><a href="javascript:alert(1)">nested</a></a>',
  '<b><i><a href="https://ok.example/"><u>deep</u></a></i></b>',
  '<a href="https://ok.example/">unclosed link',
  '<a href="javascript:alert(1)',
  '<img src=x onerror=alert(1)',
  '<script>alert(1)',
  '<scri',
  '</a></br><br',
  '<<>><a<>>',
  '<a href="https://ok.example/" <script>alert(1)</script>>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
  '\u003cscript\u003ealert(1)\u003c/script\u003e',
  '<a href="mailto:someone@example.com?subject=<script>alert(1)</script>">mail</a>',
  '<a href="https://ok.example/" target="_self" rel="opener">target</a>',
];

describe('sanitizeHtml against known XSS vectors', () => {
  for (const vector of XSS_CORPUS) {
    it(`neutralises ${JSON.stringify(vector).slice(0, 80)}`, () => {
      assertInert(vector, sanitizeHtml(vector).html);
    });
  }

  it('survives arbitrary markup soup (property)', () => {
    const fragment = fc.constantFrom(
      '<a href="',
      '">',
      '<a href=',
      'javascript:',
      'JaVaScRiPt:',
      'https://ok.example/',
      'mailto:x@y.z',
      'data:',
      '&#x0A;',
      '&#106;',
      '<script>',
      '</script>',
      '<style>',
      '<svg>',
      '<math>',
      '<br>',
      '<br/>',
      '</a>',
      '<img src=x',
      ' onerror=alert(1)',
      ' onclick="x"',
      '"',
      "'",
      '<',
      '>',
      '/',
      '=',
      ' ',
      '\n',
      '<!--',
      '-->',
      '<![CDATA[',
      ']]>',
      'text',
      '&amp;',
      '&lt;',
      '<noscript>',
      '<textarea>',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 30 }), (parts) => {
        const input = parts.join('');
        assertInert(input, sanitizeHtml(input).html);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('sanitizeHtml keeps what is allowed', () => {
  it('keeps http, https and mailto links with rel and target set', () => {
    const { html, text } = sanitizeHtml(
      '<a href="https://ok.example/a?b=1&amp;c=2">one</a> <a href="http://ok.example">two</a> <a href="mailto:x@ok.example">three</a>',
    );
    assert.equal(
      html,
      '<a href="https://ok.example/a?b=1&amp;c=2" rel="nofollow noopener noreferrer" target="_blank">one</a> ' +
        '<a href="http://ok.example" rel="nofollow noopener noreferrer" target="_blank">two</a> ' +
        '<a href="mailto:x@ok.example" rel="nofollow noopener noreferrer" target="_blank">three</a>',
    );
    assert.equal(text, 'one two three');
  });

  it('replaces author rel and target and drops other attributes', () => {
    const { html } = sanitizeHtml('<a href="https://ok.example" rel="opener" target="_self" title="t" class="c">x</a>');
    assert.equal(html, '<a href="https://ok.example" rel="nofollow noopener noreferrer" target="_blank">x</a>');
  });

  it('drops links with other schemes but keeps their text', () => {
    assert.deepEqual(sanitizeHtml('see <a href="javascript:alert(1)">this</a> and <a href="/x">that</a>!'), {
      html: 'see this and that!',
      text: 'see this and that!',
    });
  });

  it('drops script and style with their content, other tags keep their text', () => {
    assert.deepEqual(sanitizeHtml('<p>Hello <b>world</b></p><script>alert(1)</script><style>p{}</style><div>bye</div>'), {
      html: 'Hello worldbye',
      text: 'Hello worldbye',
    });
  });

  it('renders br as a newline and decodes entities in text', () => {
    assert.deepEqual(sanitizeHtml('a &amp; b<br>c &lt;d&gt; &quot;e&quot; &eacute;<BR/>f'), {
      html: 'a &amp; b<br />c &lt;d&gt; "e" é<br />f',
      text: 'a & b\nc <d> "e" é\nf',
    });
  });

  it('closes unclosed links and ignores stray closing tags', () => {
    assert.deepEqual(sanitizeHtml('</b>x<a href="https://ok.example">y'), {
      html: 'x<a href="https://ok.example" rel="nofollow noopener noreferrer" target="_blank">y</a>',
      text: 'xy',
    });
  });

  it('leaves plain text alone and handles the empty string', () => {
    assert.deepEqual(sanitizeHtml('just text'), { html: 'just text', text: 'just text' });
    assert.deepEqual(sanitizeHtml(''), { html: '', text: '' });
  });
});

describe('sanitizeHtml writes what sanitize-html wrote', () => {
  it('on markup soup of links, formatting, void, raw-text and implicitly closed tags (property)', () => {
    // No <svg> or <math>: `<x/>` inside them is the one documented difference.
    const fragment = fc.constantFrom(
      '<a href="',
      '<a href=',
      '<A HREF="',
      '">',
      'https://ok.example/',
      'javascript:',
      'mailto:x@y.z',
      '&amp;',
      '&lt;',
      '&#x0A;',
      '&quot;',
      '&',
      '<b>',
      '</b>',
      '<i>',
      '</i>',
      '</a>',
      '<a>',
      '</A>',
      '<br>',
      '<BR>',
      '</br>',
      '<br/>',
      '<script>',
      '<Script>',
      '</script>',
      '<style>',
      '</style>',
      '<noscript>',
      '</noscript>',
      '<textarea>',
      '</textarea>',
      '<title>',
      '<xmp>',
      '<img src=x>',
      ' onclick="x"',
      '"',
      "'",
      '<',
      '>',
      '/',
      '=',
      ' ',
      '\n',
      '<!--',
      '-->',
      '<![CDATA[',
      ']]>',
      'text',
      '<p>',
      '</p>',
      '<li>',
      '</li>',
      '<option>',
      '<select>',
      '<div>',
      '<table>',
      '<tr>',
      '<td>',
      '<dd>',
      '<h1>',
      '<body>',
      '<input>',
      '<hr>',
      '<b/>',
      '<a href=https://ok.example/ />',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 25 }), (parts) => {
        const input = parts.join('');
        assert.equal(sanitizeHtml(input).html, referenceSanitizeHtml(input), JSON.stringify(input));
      }),
      { numRuns: 3000 },
    );
  });

  it('on the known XSS vectors', () => {
    for (const vector of XSS_CORPUS) assert.equal(sanitizeHtml(vector).html, referenceSanitizeHtml(vector), vector);
  });
});

describe('safeHref', () => {
  it('trims whitespace and control characters at both ends only, and drops tabs and newlines anywhere', () => {
    assert.equal(safeHref(' \u0001https://ok.example/a\tb\n \u001f'), 'https://ok.example/ab');
    assert.equal(safeHref(`https://ok.example/?q=a${' '.repeat(50_000)}b`), `https://ok.example/?q=a${' '.repeat(50_000)}b`);
    assert.equal(safeHref(`a${' '.repeat(50_000)}b`), undefined);
    assert.equal(safeHref(' \u0000 '), undefined);
  });
});

describe('sanitizeHtml on deep and unclosed markup', () => {
  it("closes every open link once, at its ancestor's closing tag or at the end, and ignores stray closing tags", () => {
    const link = '<a href="https://ok.example">';
    const open = `${link}x</a>`.replace('</a>', '');
    const { html, text } = sanitizeHtml(`${'<b>'.repeat(1000)}${open.repeat(3)}${'</i>'.repeat(1000)}</b>y${'<a>'.repeat(1000)}z`);
    const out = '<a href="https://ok.example" rel="nofollow noopener noreferrer" target="_blank">';
    assert.equal(html, `${out}x${out}x${out}x</a></a></a>yz`);
    assert.equal(text, 'xxxyz');
  });
});

describe('HTML length bound', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('refuses message HTML over MAX_HTML_LENGTH characters with 422 maxLength and stores nothing', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const conversation = await f.conversation({ text: 'hello' });
    const contact = await f.contact();
    const tooLong = 'x'.repeat(MAX_HTML_LENGTH + 1);
    const client = t.client(account.token);
    const attempts: [string, string, object, string][] = [
      ['POST', `/v2/conversations/${conversation.id}/messages`, { sub_type: 'contact', html: tooLong }, 'html'],
      ['POST', '/v2/conversations', { contact_id: contact.id, html: tooLong }, 'html'],
      [
        'POST',
        '/v2/conversations',
        { contact_id: contact.id, messages: [{ sub_type: 'contact', content: { html: tooLong } }] },
        'messages[0].content.html',
      ],
    ];
    for (const [method, url, body, path] of attempts) {
      const res = await client.request({ method, url, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 422, url);
      assert.equal(res.body.code, 'invalid_arguments');
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        [[path, 'maxLength']],
      );
    }
    assert.equal((await f.get(conversation.id)).messages.length, 1);
    const { rows } = await t.db.query<{ n: number }>('select count(*)::int as n from conversations where account_id = $1', [
      account.accountId,
    ]);
    assert.equal(rows[0]!.n, 1);
  });

  it('takes the worst case at the bound: unclosed tags up to MAX_HTML_LENGTH characters', async () => {
    const account = await t.account();
    const f = conversationFactory(t, account);
    const conversation = await f.conversation({ text: 'hello' });
    const html = `${'<b>'.repeat((MAX_HTML_LENGTH - 1) / 3)}x`.padEnd(MAX_HTML_LENGTH, 'y');
    assert.equal(html.length, MAX_HTML_LENGTH);
    const message = await f.message(conversation.id, { sub_type: 'contact', html });
    assert.equal(message.content.html, 'x'.padEnd(MAX_HTML_LENGTH - html.indexOf('x'), 'y'));
  });
});
