import { ResetRequestScreen } from '@/features/auth/components/reset-request-screen';

export function ResetRequestRoute() {
  return <ResetRequestScreen />;
}
