// The search index the browser fetches (/search-index.json): written by the
// generator into src/data, served as a static file so pages never inline it.
import { dealer } from '@app/lib/build-data';

export function GET() {
  return new Response(JSON.stringify(dealer().index), { headers: { 'Content-Type': 'application/json' } });
}
