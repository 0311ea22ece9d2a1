import { useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { InputText } from 'primereact/inputtext';
import type { UserInfo } from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { brand } from '@/lib/brand';
import { phoneError as phoneMessage, useTouched } from '@/lib/form';
import { useMessageDialog } from '@/lib/message-dialog';
import { useUpdateProfile } from '../api/update-profile';
import { useStoreUser } from '../hooks/use-store-user';

const EMAIL = fieldIds('profile-email');
const PHONE = fieldIds('profile-phone');
export const PHONE_HINT = 'International format with the country code, e.g. +61412345678. Leave empty to remove it.';

/** E-mail (read-only), phone and the marketing opt-in. */
export function ProfileTab({ user }: { user: UserInfo }) {
  const [phone, setPhone] = useState(user.phone);
  const [marketingOptIn, setMarketingOptIn] = useState(user.marketingOptIn);
  const touched = useTouched();
  const dialog = useMessageDialog();
  const storeUser = useStoreUser();
  const profileMutation = useUpdateProfile();

  const showMarketing = !brand.hideMarketingEmailSignup;
  const body = { phone: phone.trim(), ...(showMarketing ? { marketingOptIn } : {}) };
  const invalid = phoneMessage(phone, true);
  const phoneError = touched.isShown('phone') ? invalid : undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    touched.touchAll();
    if (invalid) return;
    profileMutation.mutate(body, {
      onSuccess: (updated) => {
        storeUser(updated);
        setPhone(updated.phone);
        setMarketingOptIn(updated.marketingOptIn);
        dialog.showSuccess(updated);
      },
      onError: (error) => dialog.showError(error),
    });
  };

  return (
    <form className="account-form" onSubmit={onSubmit} noValidate>
      <FormField ids={EMAIL} label="Email" hint="Your sign-in address. It cannot be changed here.">
        <InputText
          id={EMAIL.input}
          value={user.email}
          readOnly
          aria-describedby={EMAIL.hint}
          className="input-readonly"
        />
      </FormField>
      <FormField ids={PHONE} label="Phone" hint={PHONE_HINT} error={phoneError}>
        <InputText
          id={PHONE.input}
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          value={phone}
          placeholder="+61412345678"
          onChange={(event) => setPhone(event.target.value)}
          onBlur={touched.touch('phone')}
          invalid={Boolean(phoneError)}
          aria-describedby={describedBy(PHONE, PHONE_HINT, phoneError)}
        />
      </FormField>
      {showMarketing && (
        <div className="checkbox-field">
          <Checkbox
            inputId="profile-marketing"
            checked={marketingOptIn}
            onChange={(event) => setMarketingOptIn(Boolean(event.checked))}
          />
          <label htmlFor="profile-marketing">Send me occasional e-mails about product news and tips</label>
        </div>
      )}
      <div className="form-actions">
        <Button type="submit" label="Save" icon="pi pi-check" loading={profileMutation.isPending} />
      </div>
    </form>
  );
}
