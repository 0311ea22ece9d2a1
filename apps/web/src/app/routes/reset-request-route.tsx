import { ResetRequestScreen } from '@/features/auth/components/reset-request-screen';
import { usePageTitle } from '@/lib/page-title';

export function ResetRequestRoute() {
  usePageTitle('Reset password');
  return <ResetRequestScreen />;
}
