import { Suspense, lazy, type ReactNode } from 'react';
import { TabPanel, TabView } from 'primereact/tabview';
import { ERROR_LOADING_DATA } from '@portal/core';
import { brand } from '@/lib/brand';
import { useUserLogin } from '../api/get-user-login';
import { MfaTab } from './mfa-tab';
import { PasswordTab } from './password-tab';
import { ProfileTab } from './profile-tab';

// The Notifications tab's code (its table and phone forms) loads when the tab is opened.
const NotificationsTab = lazy(() => import('./notifications-tab').then((m) => ({ default: m.NotificationsTab })));
// The API tab (API keys), only where the brand allows API access (BRD-11), loads when opened.
const ApiTab = lazy(() => import('./api-tab').then((m) => ({ default: m.ApiTab })));

export type AccountTab = 'profile' | 'password' | 'mfa' | 'notifications' | 'api' | 'invoices';

/**
 * The tabs of /account/{tab}; 'mfa' only where the brand allows multi-factor authentication, 'api'
 * only where it allows API access (the default brand: BRD-11).
 */
export const ACCOUNT_TABS: readonly AccountTab[] = [
  'profile',
  'password',
  ...(brand.allowMFA ? (['mfa'] as const) : []),
  'notifications',
  ...(brand.allowAPI ? (['api'] as const) : []),
  ...(brand.hidePlans ? [] : (['invoices'] as const)),
];

const TAB_LABELS: Record<AccountTab, ReactNode> = {
  profile: 'Profile',
  password: 'Password',
  mfa: (
    <>
      <span className="tab-label-long">Multi-factor authentication</span>
      <abbr className="tab-label-short" title="Multi-factor authentication">
        MFA
      </abbr>
    </>
  ),
  notifications: 'Notifications',
  api: 'API',
  invoices: 'Invoices',
};

interface AccountPageProps {
  tab: AccountTab;
  onSelectTab: (tab: AccountTab) => void;
  /** The Invoices tab's content (the billing feature's, composed by the route), where the brand shows plans. */
  invoicesTab?: ReactNode;
}

export function AccountPage({ tab, onSelectTab, invoicesTab }: AccountPageProps) {
  const userQuery = useUserLogin();
  const user = userQuery.data;
  const index = Math.max(0, ACCOUNT_TABS.indexOf(tab));

  return (
    <div className="page page--narrow">
      <header className="page-header">
        <h1 className="page-title">Account</h1>
        {user && <p className="page-subtitle">{user.email}</p>}
      </header>
      <div className="card account-card">
        {!user ? (
          <AccountSkeleton failed={userQuery.isError} />
        ) : (
          <TabView
            scrollable
            activeIndex={index}
            onTabChange={(event) => onSelectTab(ACCOUNT_TABS[event.index] ?? 'profile')}
            renderActiveOnly
          >
            {ACCOUNT_TABS.map((name) => (
              <TabPanel key={name} header={TAB_LABELS[name]}>
                {name === 'profile' && <ProfileTab key={user.userId} user={user} />}
                {name === 'password' && <PasswordTab />}
                {name === 'mfa' && <MfaTab user={user} />}
                {name === 'notifications' && (
                  <Suspense fallback={<AccountSkeleton failed={false} />}>
                    <NotificationsTab />
                  </Suspense>
                )}
                {name === 'api' && (
                  <Suspense fallback={<AccountSkeleton failed={false} />}>
                    <ApiTab />
                  </Suspense>
                )}
                {name === 'invoices' && (
                  <Suspense fallback={<AccountSkeleton failed={false} />}>{invoicesTab}</Suspense>
                )}
              </TabPanel>
            ))}
          </TabView>
        )}
      </div>
    </div>
  );
}

function AccountSkeleton({ failed }: { failed: boolean }) {
  if (failed) return <p className="muted">{ERROR_LOADING_DATA}</p>;
  return (
    <div className="skeleton-stack" aria-busy="true" role="status" aria-label="Loading account">
      <div className="skeleton skeleton--tabs" />
      <div className="skeleton skeleton--label" />
      <div className="skeleton skeleton--input" />
      <div className="skeleton skeleton--label" />
      <div className="skeleton skeleton--input" />
    </div>
  );
}
