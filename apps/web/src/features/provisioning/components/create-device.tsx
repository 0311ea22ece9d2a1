/**
 * /sqprov's 'One device': create a device (id typed or generated, model, firmware, name, brand), then show
 * its setup password and device key this once, with its label. An id that exists is refused here
 * (the same call would edit that device instead); open it to edit it.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import {
  BRANDS,
  DEFAULT_FIRMWARE,
  DeviceIdSchema,
  ProvEditDeviceBodySchema,
  mutationErrorMessage,
  normaliseDeviceIdInput,
  randomDeviceId,
  type BrandId,
  type DeviceModel,
  type ProvDevice,
} from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { LabelledDropdown } from '@/components/ui/labelled-dropdown';
import { provDeviceExists, useEditProvDevice } from '../api/prov-device';
import { CopyValue, LabelActions, MODEL_OPTIONS, issuesByField } from './prov-bits';
import { BrandField } from './brand-field';

const ID = fieldIds('prov-create-id');
const MODEL = fieldIds('prov-create-model');
const FW = fieldIds('prov-create-fw');
const NAME = fieldIds('prov-create-name');
const BRAND = fieldIds('prov-create-brand');

/** Random bytes from the browser's cryptographic source. */
export const randomBytes = (n: number) => crypto.getRandomValues(new Uint8Array(n));

/** True when a device with this id exists (asked of prov-portal-device-exists, which answers 200 either way). */
export const deviceExists = provDeviceExists;

export function CreateDevice() {
  const [created, setCreated] = useState<ProvDevice | null>(null);
  const [round, setRound] = useState(0);
  if (created)
    return (
      <CreatedDevice
        device={created}
        onAnother={() => {
          setCreated(null);
          setRound((r) => r + 1);
        }}
      />
    );
  return <CreateForm key={round} onCreated={setCreated} />;
}

function CreateForm({ onCreated }: { onCreated: (device: ProvDevice) => void }) {
  const edit = useEditProvDevice();
  const [deviceid, setDeviceid] = useState('');
  const [model, setModel] = useState<DeviceModel>('ORB-C1');
  const [fw, setFw] = useState(DEFAULT_FIRMWARE);
  const [name, setName] = useState('');
  const [brand, setBrand] = useState<BrandId>('default');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<{ message: string; existing?: string } | null>(null);
  const [checking, setChecking] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const id = DeviceIdSchema.safeParse(deviceid);
    const body = ProvEditDeviceBodySchema.safeParse({
      model,
      fw,
      brand,
      ...(name.trim() ? { name: name.trim() } : {}),
    });
    const found = {
      ...(id.success ? {} : { deviceid: id.error.issues[0]?.message ?? 'Invalid device id' }),
      ...(body.success ? {} : issuesByField(body.error.issues)),
    };
    setErrors(found);
    if (!id.success || !body.success) return;
    setChecking(true);
    try {
      if (await deviceExists(id.data)) {
        setFailure({ message: `A device with the id ${id.data} exists already.`, existing: id.data });
        return;
      }
      onCreated(await edit.mutateAsync({ deviceid: id.data, body: body.data }));
    } catch (err) {
      setFailure({ message: mutationErrorMessage(err) });
    } finally {
      setChecking(false);
    }
  };

  return (
    <form className="prov-form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Create a device">
      <div className="prov-form__grid">
        <FormField ids={ID} label="Device ID" hint="9 uppercase letters or digits" error={errors.deviceid}>
          <div className="prov-inline">
            <InputText
              id={ID.input}
              value={deviceid}
              onChange={(e) => setDeviceid(normaliseDeviceIdInput(e.target.value))}
              aria-describedby={describedBy(ID, '9', errors.deviceid)}
              aria-invalid={errors.deviceid ? true : undefined}
              className="prov-mono"
              autoComplete="off"
              spellCheck={false}
            />
            <Button
              type="button"
              label="Generate"
              icon="pi pi-refresh"
              className="p-button-outlined"
              onClick={() => setDeviceid(randomDeviceId('', randomBytes))}
            />
          </div>
        </FormField>
        <FormField ids={MODEL} label="Model" error={errors.model}>
          <LabelledDropdown
            inputId={MODEL.input}
            label="Model"
            value={model}
            options={MODEL_OPTIONS}
            onChange={(e) => setModel(e.value as DeviceModel)}
          />
        </FormField>
        <FormField ids={FW} label="Firmware" hint="Like SFW003-1.2.3" error={errors.fw}>
          <InputText
            id={FW.input}
            value={fw}
            onChange={(e) => setFw(e.target.value.trim())}
            aria-describedby={describedBy(FW, 'hint', errors.fw)}
            aria-invalid={errors.fw ? true : undefined}
            className="prov-mono"
            spellCheck={false}
          />
        </FormField>
        <FormField ids={NAME} label="Name (optional)" hint="The device id when empty" error={errors.name}>
          <InputText
            id={NAME.input}
            value={name}
            maxLength={40}
            onChange={(e) => setName(e.target.value)}
            aria-describedby={describedBy(NAME, 'hint', errors.name)}
            aria-invalid={errors.name ? true : undefined}
          />
        </FormField>
        <BrandField
          ids={BRAND}
          value={brand}
          onChange={setBrand}
          hint="Its label opens this brand's site"
          error={errors.brand}
        />
      </div>
      {failure && (
        <Message
          severity="error"
          className="prov-message"
          content={
            <span>
              {failure.message}{' '}
              {failure.existing && <Link to={`/sqprov/${failure.existing}`}>Open {failure.existing}</Link>}
            </span>
          }
        />
      )}
      <div className="prov-actions">
        <Button type="submit" label="Create device" icon="pi pi-plus" loading={checking || edit.isPending} />
      </div>
    </form>
  );
}

function CreatedDevice({ device, onAnother }: { device: ProvDevice; onAnother: () => void }) {
  return (
    <div className="prov-created" aria-live="polite">
      <h3 className="prov-created__title">
        <i className="pi pi-check-circle" aria-hidden="true" /> Device {device.deviceid} created
      </h3>
      <p className="prov-muted">
        {device.model} · {device.fw} · {device.name} · {BRANDS[device.brand].name}
      </p>
      <Message
        severity="warn"
        className="prov-message"
        text="The setup password and the device key are shown only now. Copy them, or print the label (it carries the setup password), before you leave this page."
      />
      <div className="prov-secrets">
        <CopyValue label="Setup password" value={device.setupPassword ?? ''} />
        <CopyValue label="Device key" value={device.deviceKey ?? ''} />
      </div>
      <LabelActions deviceid={device.deviceid} publicUrlConfigured={device.publicUrlConfigured} />
      <div className="prov-actions">
        <Link className="p-button p-button-outlined" to={`/sqprov/${device.deviceid}`}>
          <i className="pi pi-external-link p-button-icon-left" aria-hidden="true" />
          <span className="p-button-label">Open the record</span>
        </Link>
        <Button type="button" label="Create another" icon="pi pi-plus" className="p-button-text" onClick={onAnother} />
      </div>
    </div>
  );
}
