-- Billing (issue 16, DESIGN.md section 5 'Billing'): subscriptions per device, the invoices the
-- built-in 'invoicing' provider issues, and every billing change with who made it. A device's
-- plan stays in devices.tier (PREMIUM Hosted, TRIAL by trial days, BASIC Basic by staff): these
-- tables say why. Money in cents (integer); times timestamptz.

-- One row per subscription; a device has at most one running (status awaiting_payment or active).
CREATE TABLE billing_subscriptions (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  -- The user who subscribed (pays the invoices); null once that account is deleted.
  user_id text REFERENCES users (id) ON DELETE SET NULL,
  kind text NOT NULL CHECK (kind IN ('monthly', 'yearly', 'lifetime')),
  status text NOT NULL CHECK (status IN ('awaiting_payment', 'active', 'ended')),
  -- The provider that runs it ('invoicing' built in) and its own id there, if any.
  provider text NOT NULL,
  provider_ref text,
  period_start timestamptz NOT NULL,
  -- Null for lifetime: it never ends.
  period_end timestamptz,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  -- The device's tier before it became Hosted: what an unpaid invoice after grace returns it to.
  previous_tier text NOT NULL,
  created_at timestamptz NOT NULL,
  ended_at timestamptz,
  -- 'cancelled' (at the period's end), 'unpaid' (grace over), 'changed' (another kind), 'staff' (billing-update-plan).
  end_reason text CHECK (end_reason IN ('cancelled', 'unpaid', 'changed', 'staff'))
);
CREATE UNIQUE INDEX billing_subscriptions_running_idx ON billing_subscriptions (device_id) WHERE status <> 'ended';
CREATE INDEX billing_subscriptions_user_idx ON billing_subscriptions (user_id);
CREATE INDEX billing_subscriptions_created_idx ON billing_subscriptions (created_at);

-- One invoice per subscription period (the first at subscribing, then one per renewal).
CREATE TABLE billing_invoices (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscription_id integer NOT NULL REFERENCES billing_subscriptions (id) ON DELETE CASCADE,
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  user_id text REFERENCES users (id) ON DELETE SET NULL,
  -- The customer's address when issued (printed on the invoice).
  customer_email text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('monthly', 'yearly', 'lifetime')),
  amount_cents integer NOT NULL CHECK (amount_cents >= 0),
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'paid', 'void')),
  period_start timestamptz NOT NULL,
  period_end timestamptz,
  issued_at timestamptz NOT NULL,
  -- issued_at + 30 days: unpaid after this, the device reverts.
  due_at timestamptz NOT NULL,
  paid_at timestamptz,
  -- The staff address that marked it paid.
  paid_by text
);
CREATE INDEX billing_invoices_user_idx ON billing_invoices (user_id, id);
CREATE INDEX billing_invoices_device_idx ON billing_invoices (device_id, id);
CREATE INDEX billing_invoices_open_due_idx ON billing_invoices (due_at) WHERE status = 'open';
CREATE INDEX billing_invoices_paid_idx ON billing_invoices (paid_at) WHERE status = 'paid';

-- Every billing change: subscribe, cancel, resume, change, renew, paid, reverted, ended, plan-change.
CREATE TABLE billing_events (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('subscribe', 'cancel', 'resume', 'change', 'renew', 'paid', 'reverted', 'ended', 'plan-change')),
  -- The address of who made it; null for the server's own sweep.
  actor text,
  ts timestamptz NOT NULL,
  -- e.g. {kind, invoiceid, amount, currency, fromPlan, toPlan, fromTier, toTier, reason}.
  detail jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX billing_events_device_idx ON billing_events (device_id, id);
CREATE INDEX billing_events_ts_idx ON billing_events (ts);
