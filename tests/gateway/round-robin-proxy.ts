/**
 * A round-robin reverse proxy on 127.0.0.1 for the multi-instance tests: each request goes to the next gateway in
 * turn, its body streamed, with X-Forwarded-For appended as nginx's $proxy_add_x_forwarded_for does. The address the
 * proxy "saw" is the peer's, or the test's `x-test-peer` header (to play several clients from one test process).
 */
import { createServer, request, Agent, type Server } from 'node:http';

export interface RoundRobinProxy {
  url: string;
  /** Requests forwarded to each upstream, in order. */
  forwarded: number[];
  close(): Promise<void>;
}

export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  const agent = new Agent({ keepAlive: true });
  const forwarded = upstreams.map(() => 0);
  let next = 0;
  const server: Server = createServer((req, res) => {
    const i = next++ % upstreams.length;
    forwarded[i]!++;
    const target = new URL(req.url ?? '/', upstreams[i]);
    const seen = (req.headers['x-test-peer'] as string | undefined) ?? req.socket.remoteAddress ?? 'unknown';
    const headers = { ...req.headers };
    delete headers['x-test-peer'];
    headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${seen}` : seen;
    const upstream = request(target, { method: req.method, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${err.message}\n`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    forwarded,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
