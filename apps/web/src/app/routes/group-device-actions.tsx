/**
 * A device row's actions on the group view (spec 1 section 2 'Group view': the dialogs Display
 * Settings, Asset Notes and Regulatory Information, and the Device Page link, reached from a
 * device row): one button per row opens one shared menu; the chosen dialog is the device page's
 * own, loaded with its code when first asked for. The app composes them here because features
 * do not import each other (the group table only draws what it is given).
 */
import { Suspense, lazy, useCallback, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import type { GroupDataDevice } from '@portal/core';
import { brand } from '@/lib/brand';

const GroupDeviceDialog = lazy(() => import('./group-device-dialog'));

/** The dialogs a device row opens. */
export type DeviceDialogKind = 'notes' | 'display' | 'regulatory';

interface Target {
  deviceid: string;
  label: string;
}

/** The row's name for screen readers: its name and id, or the id alone. */
function rowLabel(device: GroupDataDevice): string {
  return device.name && device.name !== device.deviceid ? `${device.name} (${device.deviceid})` : device.deviceid;
}

/**
 * The button each row draws (`button(device)`) and, once, the menu and the open dialog
 * (`element`), for the dashboard to place.
 */
export function useGroupDeviceActions(): { button: (device: GroupDataDevice) => ReactNode; element: ReactNode } {
  const navigate = useNavigate();
  const menu = useRef<Menu>(null);
  const [target, setTarget] = useState<Target | null>(null);
  const [dialog, setDialog] = useState<{ kind: DeviceDialogKind; target: Target } | null>(null);

  const open = useCallback((device: GroupDataDevice, event: MouseEvent<HTMLButtonElement>) => {
    // The row's own click opens the device page: the menu's button keeps its click to itself.
    event.stopPropagation();
    setTarget({ deviceid: device.deviceid, label: rowLabel(device) });
    menu.current?.toggle(event);
  }, []);

  const button = useCallback(
    (device: GroupDataDevice) => (
      <button
        type="button"
        className="p-button p-button-text p-button-sm p-button-icon-only gt-actions"
        aria-label={`Device actions: ${rowLabel(device)}`}
        aria-haspopup="menu"
        title="Device actions"
        onClick={(event) => open(device, event)}
        onKeyDown={(event) => event.stopPropagation()}
      >
        <i className="pi pi-ellipsis-v" aria-hidden="true" />
      </button>
    ),
    [open],
  );

  const choose = (kind: DeviceDialogKind) => () => {
    if (target) setDialog({ kind, target });
  };
  const items: MenuItem[] = target
    ? [
        {
          label: 'Device Page',
          icon: 'pi pi-arrow-up-right',
          url: `/data/${encodeURIComponent(target.deviceid)}`,
          command: (e) => {
            e.originalEvent.preventDefault();
            void navigate(`/data/${encodeURIComponent(target.deviceid)}`);
          },
        },
        { label: 'Display Settings', icon: 'pi pi-sliders-h', command: choose('display') },
        { label: 'Asset Notes', icon: 'pi pi-file-edit', command: choose('notes') },
        ...(brand.showRegulatoryInfo
          ? [{ label: 'Regulatory Information', icon: 'pi pi-verified', command: choose('regulatory') }]
          : []),
      ]
    : [];

  const element = (
    <>
      <Menu
        model={items}
        popup
        ref={menu}
        id="group-device-actions"
        aria-label={target ? `Device actions: ${target.label}` : undefined}
      />
      {dialog && (
        <Suspense fallback={null}>
          <GroupDeviceDialog
            key={`${dialog.kind}:${dialog.target.deviceid}`}
            kind={dialog.kind}
            deviceid={dialog.target.deviceid}
            label={dialog.target.label}
            onHide={() => setDialog(null)}
          />
        </Suspense>
      )}
    </>
  );
  return { button, element };
}
