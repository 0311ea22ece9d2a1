/**
 * /sqpacking (STAFF-05; staff admins): device ids pasted or typed (one a line, or separated by
 * commas or spaces), an order reference and the address shipped to; Generate sends POST
 * /billing-packing-slip and downloads the slip as a PDF.
 */
import { useMemo, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import {
  DEVICE_ID_PATTERN,
  PROV_LIMITS,
  PackingSlipBodySchema,
  mutationErrorMessage,
  parseDeviceList,
} from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { downloadBlob } from '@/lib/download';
import { usePackingSlip } from '../api/packing-slip';
import { issuesByField } from './prov-bits';
import './provisioning.css';
import { usePageTitle } from '@/lib/page-title';

const DEVICES = fieldIds('packing-devices');
const REFERENCE = fieldIds('packing-reference');
const ADDRESS = fieldIds('packing-address');

export function PackingPage() {
  const slip = usePackingSlip();
  const [text, setText] = useState('');
  const [reference, setReference] = useState('');
  const [address, setAddress] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [made, setMade] = useState<string | null>(null);
  usePageTitle('Packing');

  // virtual devices ('0-') are never shipped
  const list = useMemo(() => {
    const parsed = parseDeviceList(text);
    const ids = parsed.ids.filter((id) => DEVICE_ID_PATTERN.test(id));
    return { ids, invalid: [...parsed.invalid, ...parsed.ids.filter((id) => !DEVICE_ID_PATTERN.test(id))] };
  }, [text]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setMade(null);
    const body = PackingSlipBodySchema.safeParse({
      deviceList: list.ids,
      ...(reference.trim() ? { reference } : {}),
      ...(address.trim() ? { address } : {}),
    });
    const found = body.success ? {} : issuesByField(body.error.issues);
    if (list.invalid.length > 0) found.deviceList = `Not device ids: ${list.invalid.join(', ')}`;
    else if (list.ids.length === 0) found.deviceList = 'Give at least one device id';
    setErrors(found);
    if (!body.success || Object.keys(found).length > 0) return;
    try {
      const file = await slip.mutateAsync(body.data);
      downloadBlob(file.blob, file.fileName);
      setMade(file.fileName);
    } catch {
      // shown below from the mutation's error
    }
  };

  return (
    <div className="page prov page--narrow">
      <header className="page-header">
        <h1 className="page-title">Packing</h1>
        <p className="page-subtitle">
          Make the packing slip of a shipment: a PDF listing each device with its model and firmware.
        </p>
      </header>
      <section className="card prov-card" aria-labelledby="packing-title">
        <h2 id="packing-title" className="card__title">
          Packing slip
        </h2>
        <form className="prov-form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Packing slip">
          <FormField
            ids={DEVICES}
            label="Device IDs"
            hint={`One a line, or separated by commas or spaces; up to ${PROV_LIMITS.batchMax}`}
            error={errors.deviceList}
            aside={
              <span className="prov-muted" aria-live="polite">
                {list.ids.length} device{list.ids.length === 1 ? '' : 's'}
              </span>
            }
          >
            <InputTextarea
              id={DEVICES.input}
              value={text}
              rows={6}
              onChange={(e) => setText(e.target.value)}
              aria-describedby={describedBy(DEVICES, 'hint', errors.deviceList)}
              aria-invalid={errors.deviceList ? true : undefined}
              className="prov-mono prov-entry"
              spellCheck={false}
            />
          </FormField>
          <FormField
            ids={REFERENCE}
            label="Reference (optional)"
            hint="An order or delivery number"
            error={errors.reference}
          >
            <InputText
              id={REFERENCE.input}
              value={reference}
              maxLength={PROV_LIMITS.packingReferenceMax}
              onChange={(e) => setReference(e.target.value)}
              aria-describedby={describedBy(REFERENCE, 'hint', errors.reference)}
              aria-invalid={errors.reference ? true : undefined}
            />
          </FormField>
          <FormField ids={ADDRESS} label="Ship to (optional)" error={errors.address}>
            <InputTextarea
              id={ADDRESS.input}
              value={address}
              rows={4}
              maxLength={PROV_LIMITS.packingAddressMax}
              onChange={(e) => setAddress(e.target.value)}
              aria-describedby={describedBy(ADDRESS, undefined, errors.address)}
              aria-invalid={errors.address ? true : undefined}
              className="prov-entry"
            />
          </FormField>
          {slip.isError && (
            <Message severity="error" text={mutationErrorMessage(slip.error)} className="prov-message" />
          )}
          {made && !slip.isError && (
            <Message severity="success" text={`Downloaded ${made}.`} className="prov-message" />
          )}
          <div className="prov-actions">
            <Button type="submit" label="Generate packing slip" icon="pi pi-file-pdf" loading={slip.isPending} />
          </div>
        </form>
      </section>
    </div>
  );
}
