/**
 * The staff Change plan dialog (POST /billing-update-plan): a plan and an optional reason, then a
 * confirmation naming what the change ends, then 'Success' with the new and previous plan or the error.
 */
import { useEffect, useId, useState } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputTextarea } from 'primereact/inputtextarea';
import { STAFF_PLAN_CHOICES, type PlanName } from '@portal/core';
import { useMessageDialog } from '@/lib/message-dialog';
import { useUpdatePlan } from '../api/staff-actions';

/** Changes a device's plan: choose, confirm, then the answer in a message dialog. */
export function StaffPlanDialog({
  visible,
  deviceid,
  current,
  onHide,
}: {
  visible: boolean;
  deviceid: string;
  current: PlanName;
  onHide: () => void;
}) {
  const [plan, setPlan] = useState<PlanName>(current);
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const update = useUpdatePlan();
  const messages = useMessageDialog();
  const reasonId = useId();
  const groupId = useId();

  useEffect(() => {
    if (visible) {
      setPlan(current);
      setReason('');
      setConfirming(false);
      update.reset();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a fresh form each time it opens
  }, [visible]);

  const submit = () =>
    update.mutate(
      { deviceid, plan, ...(reason.trim() ? { reason: reason.trim() } : {}) },
      {
        onSuccess: (answer) => {
          onHide();
          messages.show(
            'Success',
            `${deviceid} is now on the ${answer.plan} plan (was ${answer.previousPlan}).`,
            'success',
          );
        },
        onError: (error) => {
          setConfirming(false);
          messages.showError(error);
        },
      },
    );

  return (
    <Dialog
      visible={visible}
      onHide={() => {
        if (!update.isPending) onHide();
      }}
      header={confirming ? 'Confirm plan change' : 'Change plan'}
      className="view-dialog"
      style={{ width: '30rem' }}
      breakpoints={{ '575px': '100vw' }}
      draggable={false}
      resizable={false}
      footer={
        <div className="view-dialog__footer">
          {confirming ? (
            <>
              <Button
                type="button"
                label="Back"
                text
                disabled={update.isPending}
                onClick={() => setConfirming(false)}
              />
              <Button type="button" label={`Change to ${plan}`} loading={update.isPending} onClick={submit} autoFocus />
            </>
          ) : (
            <>
              <Button type="button" label="Cancel" text onClick={onHide} />
              <Button type="button" label="Continue" disabled={plan === current} onClick={() => setConfirming(true)} />
            </>
          )}
        </div>
      }
    >
      {confirming ? (
        <p className="view-dialog__text">
          Change {deviceid} from {current} to {plan}? Any running subscription ends and its open invoices are voided.
          {plan === 'Trial' && ' A device whose trial is over gets a fresh 90-day trial.'}
          {reason.trim() && <> Reason: “{reason.trim()}”.</>}
        </p>
      ) : (
        <div className="staff-form">
          <fieldset className="staff-plan-choice">
            <legend id={groupId}>Plan</legend>
            {STAFF_PLAN_CHOICES.map((choice) => (
              <label key={choice} className="staff-radio">
                <input
                  type="radio"
                  name="staff-plan"
                  value={choice}
                  checked={plan === choice}
                  onChange={() => setPlan(choice)}
                />
                {choice}
                {choice === current && <span className="staff-muted"> (current)</span>}
              </label>
            ))}
          </fieldset>
          <label htmlFor={reasonId} className="staff-label">
            Reason <span className="staff-muted">(optional, kept with the change)</span>
          </label>
          <InputTextarea
            id={reasonId}
            value={reason}
            rows={3}
            maxLength={500}
            autoResize
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
      )}
    </Dialog>
  );
}
