import type { SearchIndex } from '@app/types/site';
import { perDealer } from '../../../batch/dealers';

export function getStaticPaths() {
  return perDealer((d) => [{ params: {}, props: { index: d.index } }]);
}

export function GET({ props }: { props: { index: SearchIndex } }) {
  return new Response(JSON.stringify(props.index), { headers: { 'Content-Type': 'application/json' } });
}
