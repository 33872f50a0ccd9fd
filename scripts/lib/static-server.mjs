/**
 * A static file server for a built site, with the edge's URL rules:
 * /a/ -> /a/index.html, /a -> 301 /a/, else 404.html. Used by the e2e
 * tests, the screenshot script and scripts/serve.mjs. Loopback only.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.woff2': 'font/woff2',
};

export function isFile(p) {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** A static file server with the edge's URL rules: /a/ -> /a/index.html, /a -> 301 /a/, else 404.html. */
export function startServer(root, port = 0) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let pathname;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      pathname = '/';
    }
    const file = path.join(root, path.normalize(pathname));
    const send = (status, filePath) => {
      res.writeHead(status, { 'content-type': TYPES[path.extname(filePath)] ?? 'application/octet-stream' });
      if (req.method === 'HEAD') res.end();
      else fs.createReadStream(filePath).pipe(res);
    };
    if (!file.startsWith(root + path.sep) && file !== root) {
      res.writeHead(400).end();
    } else if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
    } else if (pathname.endsWith('/') && isFile(path.join(file, 'index.html'))) {
      send(200, path.join(file, 'index.html'));
    } else if (!pathname.endsWith('/') && isFile(file)) {
      send(200, file);
    } else if (!pathname.endsWith('/') && isFile(path.join(file, 'index.html'))) {
      res.writeHead(301, { location: `${url.pathname}/${url.search}` }).end();
    } else if (isFile(path.join(root, '404.html'))) {
      send(404, path.join(root, '404.html'));
    } else {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

