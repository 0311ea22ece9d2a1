import { LoginScreen } from '@/features/auth/components/login-screen';
import { usePageTitle } from '@/lib/page-title';

export function LoginRoute() {
  usePageTitle('Sign in');
  return <LoginScreen />;
}
