// The search index the browser fetches (/search-index.json): written by the
// generator into src/data, served as a static file so pages never inline it.
import indexJson from '../data/search-index.json';

export function GET() {
  return new Response(JSON.stringify(indexJson), { headers: { 'Content-Type': 'application/json' } });
}
