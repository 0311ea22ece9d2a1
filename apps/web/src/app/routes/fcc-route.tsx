import { FccStatement } from '@/features/fcc/components/fcc-statement';
import { usePageTitle } from '@/lib/page-title';

export function FccRoute() {
  usePageTitle('Regulatory information');
  return <FccStatement />;
}
