/** A webhook receiver for tests that only need what was delivered (the events and visitor tests). */
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

/** A receiver on 127.0.0.1 answering 200 to every delivery and keeping the parsed bodies in arrival order; closed when the test ends. */
export async function startWebhookReceiver<Body>(ctx: TestContext): Promise<{ url: string; bodies: Body[] }> {
  const bodies: Body[] = [];
  const server = http.createServer(async (request, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    bodies.push(JSON.parse(raw) as Body);
    response.writeHead(200).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  ctx.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies };
}
