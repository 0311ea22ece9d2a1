import { useState } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { isDeviceRouteId, mutationErrorMessage, type DataCounts } from '@portal/core';
import { FormField, fieldIds } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { useDeleteDeviceData } from '../api/delete-device-data';
import { useTransferDeviceData } from '../api/transfer-device-data';
import { AdminCard, DoneLine, ErrorLine } from './admin-card';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The counts a delete or transfer answers, in words. */
function countsText(counts: DataCounts): string {
  return [
    plural(counts.records, 'record', 'records'),
    plural(counts.events, 'event', 'events'),
    plural(counts.diagnostics, 'diagnostics message', 'diagnostics messages'),
    plural(counts.rollups, 'hourly rollup', 'hourly rollups'),
    plural(counts.latest, 'latest value', 'latest values'),
  ].join(', ');
}

/** The setup password and the typed device id that arm a destructive data action. */
function ConfirmFields({
  prefix,
  deviceid,
  password,
  typed,
  disabled,
  onPassword,
  onTyped,
}: {
  prefix: string;
  deviceid: string;
  password: string;
  typed: string;
  disabled: boolean;
  onPassword: (value: string) => void;
  onTyped: (value: string) => void;
}) {
  const passwordIds = fieldIds(`${prefix}-setup-password`);
  const typedIds = fieldIds(`${prefix}-confirm`);
  return (
    <>
      <FormField ids={passwordIds} label="Setup password" hint="As printed on the device label.">
        <PasswordInput
          id={passwordIds.input}
          value={password}
          autoComplete="off"
          disabled={disabled}
          aria-describedby={passwordIds.hint}
          onChange={(event) => onPassword(event.target.value)}
        />
      </FormField>
      <FormField ids={typedIds} label={`Type ${deviceid} to confirm`}>
        <InputText
          id={typedIds.input}
          value={typed}
          autoComplete="off"
          spellCheck={false}
          disabled={disabled}
          onChange={(event) => onTyped(event.target.value.toUpperCase())}
        />
      </FormField>
    </>
  );
}

/** Delete data (SUB-27, API-49): the device's data goes, after its setup password and the typed device id. */
export function DeleteDataCard({ deviceid, name }: { deviceid: string; name: string }) {
  const mutation = useDeleteDeviceData(deviceid);
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const armed = password.length > 0 && typed === deviceid;
  return (
    <AdminCard id="admin-delete-data" title="Delete data" danger>
      <p className="muted as-text">
        Deletes every record, event, diagnostics message and rollup of {name}. The server log keeps a line saying so.
        This cannot be undone.
      </p>
      <form
        className="as-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!armed || mutation.isPending) return;
          mutation.mutate(password, {
            onSuccess: () => {
              setPassword('');
              setTyped('');
            },
          });
        }}
      >
        <ConfirmFields
          prefix="admin-delete"
          deviceid={deviceid}
          password={password}
          typed={typed}
          disabled={mutation.isPending}
          onPassword={setPassword}
          onTyped={setTyped}
        />
        <ErrorLine message={mutation.isError ? mutationErrorMessage(mutation.error) : null} />
        {mutation.isSuccess && <DoneLine>Deleted {countsText(mutation.data.deleted)}.</DoneLine>}
        <div className="form-actions form-actions--start">
          <Button
            type="submit"
            label="Delete data"
            icon="pi pi-trash"
            severity="danger"
            disabled={!armed}
            loading={mutation.isPending}
          />
        </div>
      </form>
    </AdminCard>
  );
}

/** Transfer data (SUB-27, API-50): the device's data moves to another device of which the user is ADMIN too. */
export function TransferDataCard({ deviceid, name }: { deviceid: string; name: string }) {
  const mutation = useTransferDeviceData(deviceid);
  const [password, setPassword] = useState('');
  const [target, setTarget] = useState('');
  const [typed, setTyped] = useState('');
  const targetIds = fieldIds('admin-transfer-target');
  const targetError =
    target.length === 0 || isDeviceRouteId(target)
      ? target === deviceid
        ? 'Choose another device.'
        : null
      : 'A device id is 9 letters or digits (a virtual device: 0- and 7).';
  const armed = password.length > 0 && isDeviceRouteId(target) && target !== deviceid && typed === deviceid;
  return (
    <AdminCard id="admin-transfer-data" title="Transfer data" danger>
      <p className="muted as-text">
        Moves every record, event and diagnostics message of {name} to another device of which you are an ADMIN. They
        leave this device.
      </p>
      <form
        className="as-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!armed || mutation.isPending) return;
          mutation.mutate(
            { setupPassword: password, targetDeviceid: target },
            {
              onSuccess: () => {
                setPassword('');
                setTyped('');
              },
            },
          );
        }}
      >
        <FormField ids={targetIds} label="Target device id" error={targetError}>
          <InputText
            id={targetIds.input}
            value={target}
            autoComplete="off"
            spellCheck={false}
            maxLength={9}
            disabled={mutation.isPending}
            invalid={Boolean(targetError)}
            aria-describedby={targetError ? targetIds.error : undefined}
            onChange={(event) => setTarget(event.target.value.trim().toUpperCase())}
          />
        </FormField>
        <ConfirmFields
          prefix="admin-transfer"
          deviceid={deviceid}
          password={password}
          typed={typed}
          disabled={mutation.isPending}
          onPassword={setPassword}
          onTyped={setTyped}
        />
        <ErrorLine message={mutation.isError ? mutationErrorMessage(mutation.error) : null} />
        {mutation.isSuccess && (
          <DoneLine>
            Moved {countsText(mutation.data.moved)} to {mutation.data.targetDeviceid}.
          </DoneLine>
        )}
        <div className="form-actions form-actions--start">
          <Button
            type="submit"
            label="Transfer data"
            icon="pi pi-arrow-right-arrow-left"
            severity="danger"
            disabled={!armed}
            loading={mutation.isPending}
          />
        </div>
      </form>
    </AdminCard>
  );
}
