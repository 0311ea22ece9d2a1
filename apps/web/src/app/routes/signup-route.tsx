import { SignupScreen } from '@/features/auth/components/signup-screen';

export function SignupRoute() {
  return <SignupScreen />;
}
