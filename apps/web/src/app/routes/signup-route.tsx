import { SignupScreen } from '@/features/auth/components/signup-screen';
import { usePageTitle } from '@/lib/page-title';

export function SignupRoute() {
  usePageTitle('Sign up');
  return <SignupScreen />;
}
