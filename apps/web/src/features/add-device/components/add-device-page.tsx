import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import {
  ID_LENGTHS,
  findPickedGroup,
  groupPickerText,
  mutationErrorMessage,
  normaliseDeviceIdInput,
  settlePickedGroup,
  toastId,
} from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { useTouched } from '@/lib/form';
import { useMessageDialog } from '@/lib/message-dialog';
import { showToast } from '@/lib/toast';
import { useAddDevice, type AddedDevice } from '../api/add-device';
import { deviceIdError } from '../utils/device-id';
import './add-device.css';
import { usePageTitle } from '@/lib/page-title';

export type { AddedDevice };

export interface AddDeviceGroup {
  groupid: string;
  groupName: string;
}

export interface AddDevicePageProps {
  /** Prefills the device id (the label's QR code opens /add?device={id}). */
  initialDeviceId?: string | undefined;
  /** The group of /{groupid}/add, preselected in the group picker. */
  groupid?: string | undefined;
  /** The user's groups for the picker; undefined while they load. No picker without groups. */
  groups?: readonly AddDeviceGroup[] | undefined;
  /** After the device is added: the route records it as recent and opens its page. */
  onAdded: (device: AddedDevice) => void;
}

const DEVICE = fieldIds('add-device-id');
const PASSWORD = fieldIds('add-device-password');
const GROUP = fieldIds('add-device-group');
const DEVICE_HINT = `${ID_LENGTHS.device} letters or digits, printed on the device label.`;
const PASSWORD_HINT = 'Printed on the device label under the device ID.';
const GROUP_HINT = 'Choose one of your groups, or type its ID. Only a device ADMIN can put a device into a group.';
const NO_GROUP = '';

/** Add Device (/add, /{groupid}/add): device id, setup password (or none when allowed), optional group. */
export function AddDevicePage({ initialDeviceId, groupid, groups, onAdded }: AddDevicePageProps) {
  const [deviceid, setDeviceid] = useState(() => normaliseDeviceIdInput(initialDeviceId ?? ''));
  const [setupPassword, setSetupPassword] = useState('');
  const [withoutPassword, setWithoutPassword] = useState(false);
  // The picker's text: a group id (chosen or typed, upper-cased: GRP-10) or a group name being typed.
  const [chosenGroup, setChosenGroup] = useState(() => groupPickerText(groupid ?? NO_GROUP));
  const touched = useTouched();
  const addMutation = useAddDevice();
  const messages = useMessageDialog();

  usePageTitle('Add Device');

  // GRP-11: once the user's groups are known, a group that is not among them (the path's, or
  // typed text when the picker is left) is logged and cleared.
  const settle = (text: string) => (groups ? settlePickedGroup(groups, text, (m) => console.warn(m)) : text);
  const chosenRef = useRef(chosenGroup);
  chosenRef.current = chosenGroup;
  useEffect(() => {
    if (groups) setChosenGroup(settlePickedGroup(groups, chosenRef.current, (m) => console.warn(m)));
  }, [groups]);
  const pickedGroup = groups ? findPickedGroup(groups, chosenGroup) : undefined;
  const targetGroup = groups === undefined ? chosenGroup : (pickedGroup?.groupid ?? NO_GROUP);

  const errors = {
    deviceid: deviceIdError(deviceid),
    setupPassword: !withoutPassword && setupPassword.trim() === '' ? 'Enter the setup password' : undefined,
  };
  const shown = (field: keyof typeof errors) => (touched.isShown(field) ? errors[field] : undefined);
  const serverError = addMutation.isError ? mutationErrorMessage(addMutation.error) : undefined;

  // The server's message stays until the form is changed.
  const edited = () => {
    if (addMutation.isError) addMutation.reset();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (addMutation.isPending) return;
    touched.touchAll();
    if (errors.deviceid || errors.setupPassword) return;
    // Text still in the picker that names no group is cleared (GRP-11) rather than dropped silently.
    if (groups && chosenGroup.trim() !== '' && !pickedGroup) {
      setChosenGroup(settle(chosenGroup));
      return;
    }
    addMutation.mutate(
      {
        deviceid,
        ...(withoutPassword ? {} : { setupPassword: setupPassword.trim() }),
        ...(targetGroup ? { groupid: targetGroup } : {}),
      },
      {
        onSuccess: (added) => {
          messages.showSuccess(added);
          if (added.notPlacedIn) {
            const name = groups?.find((g) => g.groupid === added.notPlacedIn)?.groupName ?? added.notPlacedIn;
            const warning = notPlacedMessage(name, added.permission);
            showToast(
              { severity: 'warn', summary: 'Not added to the group', detail: warning, sticky: true },
              toastId(warning),
            );
          }
          onAdded(added);
        },
      },
    );
  };

  const showGroupPicker = groups === undefined ? Boolean(groupid) : groups.length > 0;
  const cancelTo = targetGroup ? `/group/${encodeURIComponent(targetGroup)}` : '/';

  return (
    <div className="page add-device">
      <header className="page-header">
        <h1 className="page-title">Add Device</h1>
        <p className="page-subtitle">Enter the device ID and setup password from the label on the device.</p>
      </header>
      <section className="card add-device__card" aria-label="Add a device">
        <form className="add-device__form" onSubmit={onSubmit} noValidate aria-busy={addMutation.isPending}>
          <FormField ids={DEVICE} label="Device ID" hint={DEVICE_HINT} error={shown('deviceid')}>
            <InputText
              id={DEVICE.input}
              className="add-device__id-input"
              value={deviceid}
              onChange={(event) => {
                setDeviceid(normaliseDeviceIdInput(event.target.value));
                edited();
              }}
              onBlur={touched.touch('deviceid')}
              invalid={Boolean(shown('deviceid'))}
              aria-invalid={Boolean(shown('deviceid')) || undefined}
              aria-describedby={describedBy(DEVICE, DEVICE_HINT, shown('deviceid'))}
              maxLength={ID_LENGTHS.device}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              placeholder="ABC123XYZ"
              autoFocus={deviceid === ''}
            />
          </FormField>

          {!withoutPassword && (
            <FormField ids={PASSWORD} label="Setup password" hint={PASSWORD_HINT} error={shown('setupPassword')}>
              <PasswordInput
                id={PASSWORD.input}
                value={setupPassword}
                onChange={(event) => {
                  setSetupPassword(event.target.value);
                  edited();
                }}
                onBlur={touched.touch('setupPassword')}
                invalid={Boolean(shown('setupPassword'))}
                aria-invalid={Boolean(shown('setupPassword')) || undefined}
                aria-describedby={describedBy(PASSWORD, PASSWORD_HINT, shown('setupPassword'))}
                autoComplete="off"
                spellCheck={false}
                autoFocus={deviceid !== ''}
              />
            </FormField>
          )}

          <div className="checkbox-field">
            <Checkbox
              inputId="add-device-without-password"
              checked={withoutPassword}
              onChange={(event) => {
                setWithoutPassword(Boolean(event.checked));
                edited();
              }}
              aria-describedby="add-device-without-password-hint"
            />
            <div className="add-device__checkbox-text">
              <label htmlFor="add-device-without-password">This device allows adding without a password</label>
              <small id="add-device-without-password-hint" className="form-field__hint">
                Only when its distributor has turned this on; you become the device&apos;s admin.
              </small>
            </div>
          </div>

          {showGroupPicker && (
            <FormField ids={GROUP} label="Group" hint={GROUP_HINT}>
              <Dropdown
                inputId={GROUP.input}
                value={pickedGroup?.groupid ?? chosenGroup}
                options={groups === undefined ? [{ groupid: chosenGroup, groupName: chosenGroup }] : [...groups]}
                optionLabel="groupName"
                optionValue="groupid"
                editable={groups !== undefined}
                onChange={(event) => {
                  setChosenGroup(groupPickerText(event.value ?? NO_GROUP));
                  edited();
                }}
                onBlur={() => setChosenGroup(settle(chosenGroup))}
                aria-describedby={GROUP.hint}
                aria-label="Group"
                ariaLabel="Group"
                pt={{ select: { 'aria-label': 'Group' }, trigger: { 'aria-label': 'Show your groups' } }}
                placeholder="No group"
                showClear={Boolean(pickedGroup)}
                disabled={groups === undefined}
                loading={groups === undefined}
                className="add-device__group"
              />
            </FormField>
          )}

          {serverError && <Message severity="error" text={serverError} className="add-device__error" role="alert" />}

          <div className="form-actions add-device__actions">
            <Link to={cancelTo} className="p-button p-button-text add-device__cancel">
              Cancel
            </Link>
            <Button
              type="submit"
              label={addMutation.isPending ? 'Adding…' : 'Add Device'}
              icon="pi pi-plus"
              loading={addMutation.isPending}
            />
          </div>
        </form>
      </section>
      <aside className="add-device__help" aria-label="Where to find the details">
        <i className="pi pi-qrcode" aria-hidden="true" />
        <p>
          The label on the device shows its ID and setup password. Scanning the label&apos;s QR code opens this page
          with the device ID filled in.
        </p>
      </aside>
    </div>
  );
}

/** The server added the device but did not put it into the group (DESIGN.md section 5). */
function notPlacedMessage(groupName: string, permission: string | undefined): string {
  const access = permission ? ` You have ${permission} access to it.` : '';
  return `The device was added to your account but not to ${groupName}: only a device ADMIN can put a device into a group.${access}`;
}
