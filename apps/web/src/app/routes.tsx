import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { useAuth } from '@/lib/auth/auth-context';
import { brand } from '@/lib/brand';
import { LoginGuard, RequireAuth, RequireStaffPage, SignedOutOnly } from './guards';
import { AppShell, BareShell } from './layout/app-shell';
import { NotFound } from './not-found';

// One chunk per route: the sign-in route loads only what it needs.
const LoginRoute = lazy(() => import('./routes/login-route').then((m) => ({ default: m.LoginRoute })));
const SignupRoute = lazy(() => import('./routes/signup-route').then((m) => ({ default: m.SignupRoute })));
const ResetRequestRoute = lazy(() =>
  import('./routes/reset-request-route').then((m) => ({ default: m.ResetRequestRoute })),
);
const ResetCompleteRoute = lazy(() =>
  import('./routes/reset-complete-route').then((m) => ({ default: m.ResetCompleteRoute })),
);
const VerifyRoute = lazy(() => import('./routes/verify-route').then((m) => ({ default: m.VerifyRoute })));
const UnsubscribeRoute = lazy(() =>
  import('./routes/unsubscribe-route').then((m) => ({ default: m.UnsubscribeRoute })),
);
const FccRoute = lazy(() => import('./routes/fcc-route').then((m) => ({ default: m.FccRoute })));
const HomeRoute = lazy(() => import('./routes/home-route').then((m) => ({ default: m.HomeRoute })));
const AccountRoute = lazy(() => import('./routes/account-route').then((m) => ({ default: m.AccountRoute })));
const AddDeviceRoute = lazy(() => import('./routes/add-device-route').then((m) => ({ default: m.AddDeviceRoute })));
const DataRoute = lazy(() => import('./routes/data-route').then((m) => ({ default: m.DataRoute })));
const WidgetEditorRoute = lazy(() =>
  import('./routes/widget-editor-route').then((m) => ({ default: m.WidgetEditorRoute })),
);
const ServerLogRoute = lazy(() => import('./routes/server-log-route').then((m) => ({ default: m.ServerLogRoute })));
const DiagRoute = lazy(() => import('./routes/diag-route').then((m) => ({ default: m.DiagRoute })));
const ChartRoute = lazy(() => import('./routes/chart-route').then((m) => ({ default: m.ChartRoute })));
const WidgetRoute = lazy(() => import('./routes/widget-route').then((m) => ({ default: m.WidgetRoute })));
const ScriptRoute = lazy(() => import('./routes/script-route').then((m) => ({ default: m.ScriptRoute })));
const ConfigRoute = lazy(() => import('./routes/config-route').then((m) => ({ default: m.ConfigRoute })));
const RawRoute = lazy(() => import('./routes/raw-route').then((m) => ({ default: m.RawRoute })));
const UsersRoute = lazy(() => import('./routes/users-route').then((m) => ({ default: m.UsersRoute })));
const SupportRoute = lazy(() => import('./routes/support-route').then((m) => ({ default: m.SupportRoute })));
const CustomRoute = lazy(() => import('./routes/custom-route').then((m) => ({ default: m.CustomRoute })));
const StaffAdminRoute = lazy(() => import('./routes/staff-admin-route').then((m) => ({ default: m.StaffAdminRoute })));
const StaffToolsRoute = lazy(() => import('./routes/staff-tools-route').then((m) => ({ default: m.StaffToolsRoute })));
const StaffStatsRoute = lazy(() => import('./routes/staff-stats-route').then((m) => ({ default: m.StaffStatsRoute })));
const ProvRoute = lazy(() => import('./routes/prov-route').then((m) => ({ default: m.ProvRoute })));
const ProvDeviceRoute = lazy(() => import('./routes/prov-device-route').then((m) => ({ default: m.ProvDeviceRoute })));
const PlansRoute = lazy(() => import('./routes/plans-route').then((m) => ({ default: m.PlansRoute })));
const SubscriptionsRoute = lazy(() =>
  import('./routes/subscriptions-route').then((m) => ({ default: m.SubscriptionsRoute })),
);
const PackingRoute = lazy(() => import('./routes/packing-route').then((m) => ({ default: m.PackingRoute })));
const GroupSettingsRoute = lazy(() =>
  import('./routes/group-settings-route').then((m) => ({ default: m.GroupSettingsRoute })),
);

/** '/': home when signed in; the sign-in screen in place when signed out (so Logout lands on '/'). */
function HomeGate() {
  const { session } = useAuth();
  return session.isAuthenticated ? <HomeRoute /> : <LoginRoute />;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<BareShell />}>
        <Route element={<RequireAuth />}>
          {/* Custom device pages: no navigation bar or footer. */}
          <Route path="/custom/vibracorder/:deviceid" element={<CustomRoute page="vibracorder" />} />
          <Route path="/custom/securified" element={<CustomRoute page="securified" />} />
          <Route path="/custom/securified/:deviceid" element={<CustomRoute page="securified" />} />
          <Route path="/custom/:homePage/:deviceid" element={<CustomRoute />} />
          <Route path="/custom/*" element={<NotFound />} />
        </Route>
      </Route>
      <Route element={<AppShell />}>
        <Route element={<LoginGuard />}>
          <Route path="/login" element={<LoginRoute />} />
        </Route>
        <Route element={<SignedOutOnly />}>
          <Route path="/signup" element={<SignupRoute />} />
          <Route path="/resetpassword" element={<ResetRequestRoute />} />
          <Route path="/resetpassword/:code" element={<ResetCompleteRoute />} />
        </Route>
        <Route path="/verify/:code" element={<VerifyRoute />} />
        <Route path="/unsubscribe/:token" element={<UnsubscribeRoute />} />
        <Route path="/fcc" element={<FccRoute />} />
        <Route path="/" element={<HomeGate />} />
        <Route element={<RequireAuth />}>
          <Route path="/account" element={<AccountRoute />} />
          <Route path="/account/:tab" element={<AccountRoute />} />
          <Route path="/add" element={<AddDeviceRoute />} />
          <Route path="/:groupid/add" element={<AddDeviceRoute />} />
          <Route path="/data/:deviceid" element={<DataRoute />} />
          <Route path="/:groupid/data/:deviceid" element={<DataRoute />} />
          <Route path="/serverlog/:deviceid" element={<ServerLogRoute />} />
          <Route path="/diag/:deviceid" element={<DiagRoute />} />
          <Route path="/chart/:deviceid/:chartid" element={<ChartRoute />} />
          <Route path="/widget/:deviceid/:widgetid" element={<WidgetRoute />} />
          <Route path="/script/:deviceid" element={<ScriptRoute />} />
          <Route path="/config/:deviceid" element={<ConfigRoute />} />
          <Route path="/raw/:deviceid" element={<RawRoute />} />
          <Route path="/users/:deviceid" element={<UsersRoute />} />
          <Route path="/support" element={<SupportRoute />} />
          {/* Plans and subscriptions: not routed where the brand hides plans (the not-found screen). */}
          {!brand.hidePlans && <Route path="/plans" element={<PlansRoute />} />}
          {!brand.hidePlans && <Route path="/subscriptions" element={<SubscriptionsRoute />} />}
          {!brand.hidePlans && <Route path="/subscriptions/:groupid" element={<SubscriptionsRoute />} />}
          <Route path="/support/:deviceid" element={<SupportRoute />} />
          <Route path="/group/:groupid" element={<HomeRoute />} />
          <Route path="/group/:groupid/:viewid" element={<HomeRoute />} />
          <Route path="/group/:groupid/settings" element={<GroupSettingsRoute />} />
          <Route path="/group/:groupid/settings/:tabindex" element={<GroupSettingsRoute />} />
          <Route path="/group/:groupid/:viewid/editor/:widgetid" element={<WidgetEditorRoute />} />
          {/* Staff pages (DESIGN.md section 5): anyone outside the page's staff group sees the not-found screen. */}
          <Route element={<RequireStaffPage page="sqadmin" />}>
            <Route path="/sqadmin" element={<StaffAdminRoute />} />
            <Route path="/sqadmin/:deviceid" element={<StaffAdminRoute />} />
          </Route>
          <Route element={<RequireStaffPage page="sqtools" />}>
            <Route path="/sqtools" element={<StaffToolsRoute />} />
          </Route>
          <Route element={<RequireStaffPage page="sqstats" />}>
            <Route path="/sqstats" element={<StaffStatsRoute />} />
          </Route>
          <Route element={<RequireStaffPage page="sqprov" />}>
            <Route path="/sqprov" element={<ProvRoute />} />
            <Route path="/sqprov/:deviceid" element={<ProvDeviceRoute />} />
          </Route>
          <Route element={<RequireStaffPage page="sqpacking" />}>
            <Route path="/sqpacking" element={<PackingRoute />} />
          </Route>
        </Route>
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
