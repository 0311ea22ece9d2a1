import { lazy } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { ACCOUNT_TABS, AccountPage, type AccountTab } from '@/features/account/components/account-page';
import { usePageTitle } from '@/lib/page-title';

// The Invoices tab (the built-in billing provider's portal) loads when opened.
const InvoicesTab = lazy(() =>
  import('@/features/billing/components/invoices-tab').then((m) => ({ default: m.InvoicesTab })),
);

/** Each tab's name in the document title ('Portal - Account: Profile'). */
const TAB_TITLES: Record<AccountTab, string> = {
  profile: 'Profile',
  password: 'Password',
  mfa: 'Multi-factor authentication',
  notifications: 'Notifications',
  api: 'API',
  invoices: 'Invoices',
};

function isAccountTab(value: string): value is AccountTab {
  return (ACCOUNT_TABS as readonly string[]).includes(value);
}

/** /account and /account/{tab}; an unknown tab (or mfa where the brand has none) falls back to /account. */
export function AccountRoute() {
  const { tab } = useParams();
  const navigate = useNavigate();
  const known = tab === undefined || isAccountTab(tab);
  usePageTitle(known ? TAB_TITLES[tab ?? 'profile'] : null, 'Account');
  if (!known) return <Navigate replace to="/account" />;
  return (
    <AccountPage
      tab={tab ?? 'profile'}
      onSelectTab={(next) => navigate(`/account/${next}`)}
      invoicesTab={<InvoicesTab />}
    />
  );
}
