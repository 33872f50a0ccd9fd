/**
 * A static file server for a built site, with the edge's URL rules:
 * /a/ -> /a/index.html, /a -> 301 /a/, else 404.html; and the site's
 * `_redirects` and `_headers` files applied as Cloudflare applies them
 * (redirects before files; every matching header block added, the
 * Content-Security-Policy included), so the e2e tests see what shoppers
 * get. Used by the e2e tests, the screenshot script and scripts/serve.mjs.
 * Loopback only. With `apiProxy`, /api/* goes to the worker instead, as
 * production routes /api on the site's own domain to it
 * (scripts/e2e/fullstack.mjs).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';

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

/** `*` matches any run of characters (Cloudflare's splat, captured: a redirect's `:splat`); the rest is literal. */
function patternRegExp(pattern) {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '(.*)');
  return new RegExp(`^${escaped}$`);
}

/** `_redirects`: "from to [status]" lines; `#` comments. */
export function parseRedirects(text) {
  const rules = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [from, to, status] = line.split(/\s+/);
    if (from && to) rules.push({ from: patternRegExp(from), to, status: Number(status ?? 302) });
  }
  return rules;
}

/** `_headers`: a path pattern line, then indented "Name: value" lines. */
export function parseHeaders(text) {
  const blocks = [];
  let current = null;
  for (const raw of text.split('\n')) {
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    if (!/^\s/.test(raw)) {
      current = { path: patternRegExp(raw.trim()), headers: {} };
      blocks.push(current);
    } else if (current) {
      const line = raw.trim();
      // "! Name" detaches a header an earlier block set (Cloudflare's syntax).
      if (line.startsWith('!')) current.headers[line.slice(1).trim().toLowerCase()] = null;
      const at = line.indexOf(':');
      if (at > 0 && !line.startsWith('!')) current.headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
  }
  return blocks;
}

function readIfThere(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Sends one request on to the worker at `target` (http://127.0.0.1:port),
 * unchanged: method, path, body and every header, Host included, so the
 * worker sees the site's own URL (same-origin GETs carry no Origin header).
 */
function proxy(req, res, target) {
  const { hostname, port } = new URL(target);
  const upstream = http.request({ hostname, port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: `worker unreachable: ${error.message}` }));
  });
  req.pipe(upstream);
}

/**
 * A static file server with the edge's URL rules: /a/ -> /a/index.html, /a -> 301 /a/, else 404.html.
 * `options.apiProxy`: a function answering the worker's origin; /api/* is then proxied there.
 * `options.compress`: gzip text responses, as the CDN does (the Lighthouse benchmark).
 */
export function startServer(root, port = 0, options = {}) {
  const redirects = parseRedirects(readIfThere(path.join(root, '_redirects')));
  const headerBlocks = parseHeaders(readIfThere(path.join(root, '_headers')));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (options.apiProxy && url.pathname.startsWith('/api/')) {
      proxy(req, res, options.apiProxy());
      return;
    }
    const redirect = redirects.find((r) => r.from.test(url.pathname));
    if (redirect) {
      const splat = redirect.from.exec(url.pathname)?.[1] ?? '';
      res.writeHead(redirect.status, { location: `${redirect.to.replaceAll(':splat', splat)}${url.search}` }).end();
      return;
    }
    let pathname;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      pathname = '/';
    }
    const file = path.join(root, path.normalize(pathname));
    const send = (status, filePath) => {
      const type = TYPES[path.extname(filePath)] ?? 'application/octet-stream';
      // As the CDN does: text goes gzip-compressed to a browser that accepts it.
      const gzip = options.compress && /^(text\/|application\/(json|xml)|image\/svg)/.test(type) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
      const headers = { 'content-type': type, ...(gzip ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {}) };
      // The site's _headers (CSP and the rest), as the CDN applies them.
      for (const block of headerBlocks) if (block.path.test(url.pathname)) Object.assign(headers, block.headers);
      for (const [name, value] of Object.entries(headers)) if (value === null) delete headers[name];
      res.writeHead(status, headers);
      if (req.method === 'HEAD') res.end();
      else if (gzip) fs.createReadStream(filePath).pipe(zlib.createGzip()).pipe(res);
      else fs.createReadStream(filePath).pipe(res);
    };
    // The CDN's own files are instructions, never content.
    if (pathname === '/_headers' || pathname === '/_redirects') {
      res.writeHead(404).end('not found');
    } else if (!file.startsWith(root + path.sep) && file !== root) {
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

