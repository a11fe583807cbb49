import { createServer, type Server } from 'node:http';
import { WebSocketServer } from 'ws';

/**
 * Test support (never shipped): a small site on loopback for the browser tool. `/` is a form
 * (name, colour, send) whose `/result` page greets the sender; `/files` links a text file
 * served as an attachment; `/to-private` redirects to another loopback address (127.0.0.2),
 * which a policy allowing only 127.0.0.1 must refuse; `/socket?to=<host>` opens a WebSocket to
 * `/echo` on that host and shows what came back (or `socket failed`).
 */
export interface BrowserTestSite {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export async function startBrowserTestSite(): Promise<BrowserTestSite> {
  let port = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    const html = (status: number, body: string) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    switch (url.pathname) {
      case '/':
        return html(
          200,
          page(
            'Order form',
            `<h1>Order</h1>
<form action="/result" method="get">
  <label>Your name <input name="name" autocomplete="off"></label>
  <label>Colour <select name="colour"><option value="red">Red</option><option value="blue">Blue</option><option value="green">Green</option></select></label>
  <button type="submit">Send order</button>
</form>`,
          ),
        );
      case '/result': {
        const name = escapeHtml(url.searchParams.get('name') ?? '');
        const colour = escapeHtml(url.searchParams.get('colour') ?? '');
        return html(
          200,
          page('Order received', `<h1>Thank you</h1><p id="result">Order for ${name}: one ${colour} mug.</p>`),
        );
      }
      case '/files':
        return html(200, page('Files', '<h1>Files</h1><a href="/files/report.txt">Monthly report</a>'));
      case '/files/report.txt':
        return res
          .writeHead(200, { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="report.txt"' })
          .end('report body\n');
      case '/socket': {
        const host = url.searchParams.get('to') ?? '127.0.0.1';
        const script = `const ws = new WebSocket('ws://${host}:${port}/echo');
ws.onopen = () => ws.send('hi');
ws.onmessage = (event) => { document.getElementById('out').textContent = 'socket said ' + event.data; };
ws.onerror = () => { document.getElementById('out').textContent = 'socket failed'; };`;
        return html(200, page('Socket', `<p id="out">connecting</p><script>${script}</script>`));
      }
      case '/to-private':
        return res.writeHead(302, { location: `http://127.0.0.2:${port}/` }).end();
      default:
        return html(404, page('Not found', '<h1>Not found</h1>'));
    }
  });
  const sockets = new WebSocketServer({ server, path: '/echo' });
  sockets.on('connection', (socket) => socket.on('message', (data) => socket.send(`echo ${String(data)}`)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
