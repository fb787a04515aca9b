/**
 * A host page for the chat widget on its own origin (another loopback port than the service), as a shop's site
 * would embed it: the one script tag, under a strict Content-Security-Policy (no inline script or style, scripts and
 * connections only to itself and the service), with hostile CSS of its own. Its script (`/host.js`) records what a
 * test or benchmark reads back: the widget's events through the JavaScript API, long tasks, CSP violations.
 *
 * Query parameters of `/`: `lang` (the page's `lang`), `position` and `z-index` (the tag's `data-` attributes),
 * `identity` (a signed identity, JSON, handed to chatWidget.identify before anything), `widget=0` (the same page
 * without the widget: a baseline).
 */
import { createServer, type Server } from 'node:http';

export interface HostPage {
  origin: string;
  close(): Promise<void>;
}

const HOST_CSS = `
* { font-family: Georgia, serif !important; color: #7f1d1d; }
button { background: yellow; border: 5px solid green; font-size: 40px; }
div, p { margin: 30px; padding: 20px; }
textarea { font-size: 9px; }
body { background: #fffbeb; }
main { max-width: 40rem; }
`;

/** The host page's own script: no inline script is allowed, so the page's JavaScript lives here. */
const HOST_JS = `
window.hostLog = { ready: 0, messages: [], unread: [], longTasks: [], violations: [] };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) hostLog.longTasks.push({ start: entry.startTime, duration: entry.duration });
}).observe({ type: 'longtask', buffered: true });
document.addEventListener('securitypolicyviolation', (e) => hostLog.violations.push(e.violatedDirective + ' ' + e.blockedURI));
const params = new URLSearchParams(location.search);
window.chatWidget = [
  ['on', 'ready', () => hostLog.ready++],
  ['on', 'message', (m) => hostLog.messages.push(m)],
  ['on', 'unread', (n) => hostLog.unread.push(n)],
  ['setVariables', { plan: 'gold', cart_items: 3 }],
];
if (params.get('identity')) window.chatWidget.push(['identify', JSON.parse(params.get('identity'))]);
document.getElementById('help').addEventListener('click', () => window.chatWidget.open());
`;

function page(service: string, key: string, query: URLSearchParams): string {
  // The tag's optional attributes, from the query: position, z-index.
  const options = ['position', 'z-index']
    .filter((name) => query.has(name))
    .map((name) => ` data-${name}="${(query.get(name) ?? '').replace(/[^\w-]/g, '')}"`)
    .join('');
  const widget = query.get('widget') === '0' ? '' : `<script src="${service}/widget.js" data-key="${key}"${options} async></script>`;
  return `<!doctype html>
<html lang="${(query.get('lang') ?? 'en').replace(/\W/g, '')}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>A shop</title>
<link rel="stylesheet" href="/host.css"></head>
<body><main><h1>A shop</h1><p>Products, prices and a chat in the corner.</p>
<button id="help" type="button">Need help?</button></main>
<script src="/host.js"></script>
${widget}
</body></html>`;
}

/** Serves the host page on a free loopback port; `key` is the account's widget key, `service` the service's origin. */
export async function startHostPage(service: string, key: string): Promise<HostPage> {
  const csp = `default-src 'self'; script-src 'self' ${service}; connect-src ${service}`;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://host');
    const [type, body] =
      url.pathname === '/host.js'
        ? ['text/javascript', HOST_JS]
        : url.pathname === '/host.css'
          ? ['text/css', HOST_CSS]
          : ['text/html; charset=utf-8', page(service, key, url.searchParams)];
    response.writeHead(url.pathname === '/' || url.pathname.startsWith('/host.') ? 200 : 404, {
      'Content-Type': type,
      'Content-Security-Policy': csp,
      'Cache-Control': 'no-store',
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
