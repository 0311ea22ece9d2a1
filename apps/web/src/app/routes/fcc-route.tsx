import { FccStatement } from '@/features/fcc/components/fcc-statement';

export function FccRoute() {
  return <FccStatement />;
}
